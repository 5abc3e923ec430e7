"""GPU health and interconnect, measured on a stack's nodes: what ``trainstack health``
records (``facts/STACK.health.json``), how each tool's log is read, and how two stacks'
measurements gate a comparison (:mod:`trainstack.health.verdict`)."""
