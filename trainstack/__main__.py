"""``python -m trainstack`` runs the command line."""

from trainstack.cli import run

# Guarded: worker processes the plan starts re-import the main module under another name.
if __name__ == "__main__":
    run()
