"""``python -m trainstack`` runs the command line."""

from trainstack.cli import main

main()
