"""The operator catalog: what each supported operator release installs, serves and honours.

Each name is imported from the module that defines it (nothing is re-exported here):
``trainstack operators`` is a command of the command line, whose other commands should not
load the catalog at start-up.
"""
