"""``trainstack health STACK``: the checks run on a stack's nodes (or written with
``--render``), their logs read into ``facts/STACK.health.json``."""
