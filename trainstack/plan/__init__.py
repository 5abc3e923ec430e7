"""The offline plan: the real program under Pulumi's mock engine, every registration kept.

Each name is imported from the module that defines it (nothing is re-exported here: the
command line imports :mod:`trainstack.plan.cli`, and the engine and Pulumi load when a
plan runs). The files a plan writes are typed in :mod:`trainstack.plan.files`.
"""
