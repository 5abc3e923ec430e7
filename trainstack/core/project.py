"""The Pulumi project on disk: its root, its stacks and their configuration files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainstack.core.errors import ProjectNotFoundError, StackNotFoundError
from trainstack.core.file_names import STACK_NAME_PATTERN, check_stack_name
from trainstack.core.yaml.io import read_yaml

PROJECT_FILE = "Pulumi.yaml"
CONFIG_NAMESPACE = "trainstack"


@dataclass(frozen=True)
class Project:
    """A Pulumi project directory (the one holding ``Pulumi.yaml``)."""

    root: Path
    name: str
    stack_config_dir: Path

    @classmethod
    def find(cls, start: Path | None = None) -> Project:
        """The project containing ``start`` (default: the working directory)."""
        origin = (start or Path.cwd()).resolve()
        for directory in (origin, *origin.parents):
            project_file = directory / PROJECT_FILE
            if project_file.is_file():
                return cls.load(directory)
        raise ProjectNotFoundError(origin)

    @classmethod
    def load(cls, root: Path) -> Project:
        """Read ``root/Pulumi.yaml``."""
        document: Any = read_yaml(root / PROJECT_FILE)
        settings = document if isinstance(document, dict) else {}
        name = str(settings.get("name", root.name))
        config_dir = root / str(settings.get("stackConfigDir", "."))
        return cls(root=root, name=name, stack_config_dir=config_dir)

    @property
    def main_program(self) -> Path:
        """The program Pulumi runs."""
        return self.root / "__main__.py"

    def stacks(self) -> list[str]:
        """Names of the stacks that have a configuration file, sorted."""
        prefix, suffix = f"{PROJECT_FILE.split('.')[0]}.", ".yaml"
        names = (
            path.name[len(prefix) : -len(suffix)]
            for path in self.stack_config_dir.glob(f"{prefix}*{suffix}")
        )
        # A file whose middle is no valid stack name (`Pulumi.....yaml`) is no stack.
        return sorted(name for name in names if STACK_NAME_PATTERN.fullmatch(name))

    def stack_file(self, stack: str) -> Path:
        """The configuration file of ``stack``; raises when it does not exist."""
        check_stack_name(stack)
        path = self.stack_config_dir / f"Pulumi.{stack}.yaml"
        if not path.is_file():
            raise StackNotFoundError(stack, self.display(path), self.stacks())
        return path

    def display(self, path: Path) -> str:
        """``path`` as shown to users: relative to the project root when inside it."""
        try:
            return str(path.resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(path)
