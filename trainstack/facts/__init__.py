"""A cluster as observed: ``facts/STACK.json`` (written by ``trainstack inspect``), read by the
plan (declared against observed), the fairness report and the results of each run.

``model.py`` is the file's typed model, ``store.py`` reads and writes it, ``environment.py``
compares two environments fact by fact, ``render.py`` shows them to people.
"""
