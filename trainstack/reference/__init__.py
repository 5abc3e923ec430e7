"""The generated pages of the documentation site (docs/reference/): the configuration
keys, the chart's values and the commands, written from the code that defines them and
checked for drift like the chart (``trainstack docs generate`` / ``check``)."""
