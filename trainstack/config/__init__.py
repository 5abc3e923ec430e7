"""Typed stack configuration: what ``stacks/Pulumi.<stack>.yaml`` may say under ``trainstack:``."""

from trainstack.config.stack import StackConfig

__all__ = ["StackConfig"]
