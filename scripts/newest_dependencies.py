"""Test trainstack against the newest releases its ranges allow, and name what breaks it.

The weekly job of ``.github/workflows/newest.yml`` runs this. It never touches the
repository it is run from: the committed tree is cloned into a scratch directory, whose
lock is upgraded (``uv lock --upgrade``) and installed into a throw-away environment; then
the test suite runs there. When tests fail, they run again with the committed lock (a test
failing there too is no upgrade's doing, and is said apart), then with each upgraded
package alone on top of the committed lock, so the job's error names the release that
broke them (or says that only their combination does).

    python scripts/newest_dependencies.py [--uv PATH] [--keep DIR] [-- PYTEST_ARGS...]

Exit status: 0 the newest releases pass (or there is nothing newer), 1 tests fail with
them, 2 the tool itself could not run (uv missing, the upgrade could not be resolved).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# What `uv lock` prints for each change it makes to the lock.
_CHANGE = re.compile(
    r"^(?P<what>Updated|Added|Removed) (?P<name>\S+) (?P<versions>v\S+(?: -> v\S+)?)$"
)


@dataclass(frozen=True)
class Change:
    """One package the upgraded lock holds differently from the committed one."""

    what: str
    name: str
    versions: str

    def __str__(self) -> str:
        return f"{self.name} {self.versions} ({self.what.lower()})"


def lock_changes(uv_output: str) -> list[Change]:
    """The changes ``uv lock --upgrade`` reported, in its order."""
    found = (_CHANGE.match(line.strip()) for line in uv_output.splitlines())
    return [Change(m["what"], m["name"], m["versions"]) for m in found if m]


def failed_tests(junit_xml: Path) -> list[str]:
    """Node ids (``tests/x.py::test_y[p]``) of the failed and errored tests in a JUnit report."""
    if not junit_xml.is_file():
        return []
    failed = []
    for case in ElementTree.parse(junit_xml).iter("testcase"):
        if case.find("failure") is None and case.find("error") is None:
            continue
        module = case.get("classname", "").replace(".", "/")
        failed.append(f"{module}.py::{case.get('name')}")
    return sorted(set(failed))


def report(culprits: dict[Change, list[str]], failed: list[str]) -> list[str]:
    """One line per package that breaks tests alone; GitHub shows ``::error::`` lines."""
    if not failed:
        return []
    if not culprits:
        return [
            f"::error::{len(failed)} tests fail with the newest releases, but with none of "
            "the upgrades alone: the combination breaks them"
        ]
    return [
        f"::error::{change} breaks {len(tests)} tests: {', '.join(tests[:5])}"
        + (" ..." if len(tests) > 5 else "")
        for change, tests in culprits.items()
    ]


class Scratch:
    """A clone of the repository's committed tree, with its own environment."""

    def __init__(self, root: Path, uv: str, repo: Path = REPO) -> None:
        self.root, self.uv = root, uv
        self.env = {
            **os.environ,
            "UV_PROJECT_ENVIRONMENT": str(root / ".venv"),
            "UV_PYTHON_DOWNLOADS": "never",
            "UV_NO_PROGRESS": "1",
        }
        # A clone, so that the tests see a git checkout as they do in CI.
        subprocess.run(
            ["git", "clone", "--quiet", "--no-hardlinks", str(repo), str(root)],
            capture_output=True,
            check=True,
        )
        self.committed_lock = (root / "uv.lock").read_bytes()

    def uv_run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.uv, *args], cwd=self.root, env=self.env, capture_output=True, text=True
        )

    def lock(self, *args: str) -> str:
        """Lock again from the committed lock with ``args``; what uv reported."""
        (self.root / "uv.lock").write_bytes(self.committed_lock)
        if not args:
            return ""
        done = self.uv_run("lock", "--python", sys.executable, *args)
        if done.returncode != 0:
            raise SystemExit(f"error: uv lock {' '.join(args)} failed:\n{done.stderr}")
        return done.stderr + done.stdout

    def pytest(self, junit: Path, args: list[str]) -> int:
        synced = self.uv_run("sync", "--locked", "--extra", "dev", "--python", sys.executable)
        if synced.returncode != 0:
            raise SystemExit(f"error: uv sync failed:\n{synced.stderr}")
        command = [str(self.root / ".venv" / "bin" / "pytest"), f"--junitxml={junit}", *args]
        return subprocess.run(command, cwd=self.root, env=self.env).returncode

    def failing(self, name: str, tests: list[str]) -> list[str]:
        """Which of ``tests`` fail with the lock as it is now."""
        report = self.root / f"{name}.xml"
        self.pytest(report, ["-q", "-p", "no:cacheprovider", *tests])
        return failed_tests(report)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uv", default=str(REPO / ".tools/bin/uv"))
    parser.add_argument("--keep", type=Path, help="work in this directory and keep it")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to copy")
    parser.add_argument("pytest_args", nargs="*", default=["-q", "-p", "no:cacheprovider"])
    options = parser.parse_args(argv)
    if not Path(options.uv).is_file():
        print(f"error: uv not found at {options.uv}: run `make install` first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="trainstack-newest-") as temporary:
        root = options.keep or Path(temporary)
        root.mkdir(parents=True, exist_ok=True)
        scratch = Scratch(root, str(Path(options.uv).resolve()), options.repo)
        changes = lock_changes(scratch.lock("--upgrade"))
        if not changes:
            print("The lock already holds the newest releases the ranges allow.")
            return 0
        print("Newer than the lock:\n" + "\n".join(f"  {change}" for change in changes))
        junit = root / "newest.xml"
        if scratch.pytest(junit, options.pytest_args) == 0:
            print("The tests pass with the newest releases: refresh the lock with `make lock`.")
            return 0
        failed = failed_tests(junit)
        # Failing with the committed lock too: not an upgrade's doing (a flaky test, or
        # something of this machine); said apart, and not blamed on any package.
        scratch.lock()
        already = scratch.failing("committed", failed) if failed else []
        caused = [test for test in failed if test not in already]
        culprits: dict[Change, list[str]] = {}
        for change in changes if caused else []:
            if change.what != "Removed":
                scratch.lock("--upgrade-package", change.name)
                culprits[change] = scratch.failing(f"alone-{change.name}", caused)
        culprits = {change: tests for change, tests in culprits.items() if tests}
        lines = report(culprits, caused)
        if already:
            lines.append(
                f"::warning::{len(already)} tests fail with the committed lock too: "
                + ", ".join(already[:5])
            )
        print("\n".join(lines or ["::error::the tests fail"]))
        return 1 if caused or not already else 0


if __name__ == "__main__":
    sys.exit(main())
