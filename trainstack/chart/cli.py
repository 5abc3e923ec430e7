"""Placeholder: the ``trainstack chart`` commands are being written."""

import typer

chart_app = typer.Typer(help="Generate, check, render and package the training-job chart.")
