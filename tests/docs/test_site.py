"""The documentation site builds with strict link checking, and a broken link fails it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.stack_helpers import REPO


def _build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(REPO / "mkdocs.yml", root)
    shutil.copytree(REPO / "docs", root / "docs")
    return root


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    built = _build(_copy(tmp_path), tmp_path / "site")
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "reference" / "configuration" / "index.html").is_file()
    assert (tmp_path / "site" / "pull-requests" / "index.html").is_file()


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    page = root / "docs" / "secrets.md"
    broken = "[the workloads](../shared/workloads.md), [a key](reference/configuration.md#nope)"
    page.write_text(page.read_text() + f"\nSee {broken}.\n")

    built = _build(root, tmp_path / "site")

    assert built.returncode == 1
    printed = built.stdout + built.stderr
    assert "'../shared/workloads.md'" in printed
    assert "does not contain an anchor '#nope'" in printed
    assert "Aborted with 2 warnings in strict mode!" in printed


def test_no_page_points_outside_the_repository_clone() -> None:
    # A user's clone has no ../shared (the reference data CI reads) and no workloads.md:
    # what users need from there is in docs/workloads.md.
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for forbidden in ("../shared", "shared/reference", "](../workloads.md", "`workloads.md`"):
            assert forbidden not in text, f"{page.relative_to(REPO)}: {forbidden}"
