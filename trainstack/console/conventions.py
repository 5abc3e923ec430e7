"""The one convention every ``trainstack`` command follows for its options, as data.

Read by the commands themselves (:mod:`trainstack.console.commands`: ``-h``, the old
spellings), by the commands page of the docs (its "Conventions" section is written from
this module) and by ``tests/test_cli_conventions.py``, which walks the real command tree
and fails on any option that breaks it:

- a long option means one thing everywhere: the same name takes the same kind of value
  (the same metavar) in every command; ``--output`` takes a FILE, ``--output-dir`` (like
  every ``--*-dir``) a DIR, every ``--*-file`` a FILE;
- a short flag stands for one long option everywhere (:data:`SHORT_FLAGS`), and that
  option has it in every command that has the option; any other option has none;
- ``-h`` is ``--help`` everywhere;
- a value is shown by an upper-case metavar (:data:`METAVAR_PATTERN`): ``DIR``,
  ``FILE``, ``STACK``, ``KEY=VALUE``, ``N``; never a Python type (``<list[str]>``);
- a default printed in brackets is a value the user could type, and reads back as the
  default; a flag prints none;
- a repeatable option is named in the singular and says "repeatable".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HELP_OPTION_NAMES = ("--help", "-h")
"""``--help`` first: click's "Try 'trainstack diff --help' for help." names the first."""

SHORT_FLAGS: dict[str, str] = {
    "-h": "--help",
    "-f": "--follow",
    "-n": "--namespace",
    "-o": "--output-dir",
    "-s": "--stack",
    "-U": "--unified",
}
"""Every short flag of the command line and the one long option it stands for, as users
know them: ``kubectl logs -f, --follow`` and kubectl's (and Arena's) ``-n, --namespace``
(https://kubernetes.io/docs/reference/kubectl/generated/kubectl_logs/; Arena:
docs/daily-use.md), git diff's ``-U<n>, --unified=<n>`` lines of context (git/git
Documentation/diff-options.txt at 54b469b9e9a9), and ``-o`` for where output goes. kubectl's
``--context`` names a kubeconfig context (same page), which is why diff's lines of context
are ``--unified``."""

METAVAR_PATTERN = re.compile(r"[A-Z][A-Z0-9_]*(?:(?:[=, ]|,\.\.\.)[A-Z][A-Z0-9_]*)*(?:\.\.\.)?")
"""Upper-case words, joined by ``=``, ``,`` or a space: ``DIR``, ``KEY=VALUE``,
``DIR_A DIR_B``, ``STACK,STACK``; ``...`` after a word that repeats."""

TAKES_BY_NAME: dict[str, str] = {"--output": "FILE", "--output-dir": "DIR"}
"""What an option of this exact name takes (beyond the ``--*-dir`` and ``--*-file`` rule)."""

TAKES_BY_SUFFIX: dict[str, str] = {"-dir": "DIR", "-file": "FILE"}


@dataclass(frozen=True)
class Renamed:
    """A long option renamed: the old spelling still works (with a warning on stderr) in
    ``command`` until the release ``dropped_in``; it is in no help."""

    command: str
    """The command's words after ``trainstack``: ``diff``, ``chart generate``."""
    old: str
    new: str
    dropped_in: str
    why: str


@dataclass(frozen=True)
class Retired:
    """A short flag that meant another option in ``command``: using it is an error that
    says what to write instead (it must never silently mean the other option)."""

    command: str
    flag: str
    was: str
    """The long option it stood for in ``command``."""


RENAMED: tuple[Renamed, ...] = (
    Renamed("diff", "--context", "--unified", "0.2.0", "--context names a kubeconfig context"),
    Renamed("chart generate", "--output", "--output-dir", "0.2.0", "it takes a directory"),
    Renamed("chart package", "--output", "--output-dir", "0.2.0", "it takes a directory"),
    Renamed("results report", "--output", "--output-dir", "0.2.0", "it takes a directory"),
    Renamed("health", "--nodes", "--node", "0.2.0", "repeatable options are singular"),
)
"""Long options renamed in 0.1.x, read under their old spelling until ``dropped_in``."""

RETIRED: tuple[Retired, ...] = (Retired("diff", "-f", "--format"),)
"""Short flags that changed meaning: an error in the commands where they meant another
option."""


def old_spelling_warning(renamed: Renamed) -> str:
    """The warning a renamed option's old spelling prints (on stderr)."""
    return (
        f"`trainstack {renamed.command} {renamed.old}` is now {renamed.new} "
        f"({renamed.why}); {renamed.old} stops working in {renamed.dropped_in}"
    )


def retired_flag_error(retired: Retired) -> str:
    """The error a retired short flag gives."""
    now = SHORT_FLAGS.get(retired.flag)
    meaning = f"it is short for {now} wherever that option exists" if now else "it is gone"
    return (
        f"{retired.flag} is no longer short for {retired.was} in `trainstack "
        f"{retired.command}` ({meaning}): write {retired.was}"
    )
