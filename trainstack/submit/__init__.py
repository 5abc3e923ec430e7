"""Runs without a deployment: ``trainstack run``, ``trainstack runs`` and ``chart render
--stack``, from the plan's own resolution, checks and rendering."""
