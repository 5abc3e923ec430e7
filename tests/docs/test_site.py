"""The documentation site builds with strict link checking, a broken link fails it, and
the built site navigates and searches when opened from disk, in a real browser."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.docs_hooks import SHIM_IN_SITE, SHIM_PACKAGE
from tests.stack_helpers import REPO

pytestmark = pytest.mark.slow  # left out of `make test-fast`

CHROMIUM = os.environ.get("TRAINSTACK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


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
    (root / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "docs_hooks.py", root / "scripts")
    shim = REPO / SHIM_PACKAGE
    if shim.is_file():
        (root / SHIM_PACKAGE).parent.mkdir(parents=True)
        shutil.copy(shim, root / SHIM_PACKAGE)
    return root


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    built = _build(_copy(tmp_path), tmp_path / "site")
    assert built.returncode == 0, built.stderr
    # Pages are files, so that links work from disk (no server turning a directory
    # into its index.html).
    assert (tmp_path / "site" / "reference" / "configuration.html").is_file()
    assert (tmp_path / "site" / "pull-requests.html").is_file()
    assert not (tmp_path / "site" / "pull-requests").exists()


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


@pytest.mark.skipif(
    shutil.which(CHROMIUM) is None,
    reason=f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(
    not (REPO / SHIM_PACKAGE).is_file(),
    reason=f"no {SHIM_PACKAGE} (npm ci): the site searches from disk only with it",
)
def test_the_site_opened_from_disk_navigates_and_searches(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) missing")
    site = tmp_path / "site"
    built = _build(_copy(tmp_path), site)
    assert built.returncode == 0, built.stderr
    assert (site / SHIM_IN_SITE).is_file()
    home = (site / "index.html").as_uri()
    requests: list[str] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            page.on("request", lambda request: requests.append(request.url))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(home, wait_until="load")
            page.click("nav.md-nav--primary a:has-text('Preflight')")
            page.wait_for_load_state("load")
            landed, heading = page.url, page.locator("h1").first.inner_text()
            page.locator("input.md-search__input").fill("termination message")
            page.locator(".md-search-result__item").first.wait_for(timeout=10_000)
            found = page.locator(".md-search-result__item a").first.get_attribute("href")
        finally:
            browser.close()
    # A page, not a directory listing: the link names the file.
    assert landed == (site / "preflight.html").as_uri()
    assert heading.startswith("The preflight")
    assert found is not None and "preflight.html" in found
    # Nothing from the network: every request is a file of the site.
    assert all(u.startswith("file://") or u.startswith("data:") for u in requests), requests
    assert errors == []
