"""The program's side of each kind of cluster (``trainstack/config/clusters/``): one
module per kind, its components, and the table that hands a stack's cluster to its kind
(``registry.py``)."""
