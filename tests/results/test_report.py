"""``trainstack results report``: one self-contained page, verdict first, opened in a real
headless browser (Debian's Chromium through Playwright; never a downloaded browser)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run, run_process
from tests.results.sample_logs import (
    AIACC_IMAGES_PER_SEC,
    BASELINE_IMAGES_PER_SEC,
    tf_cnn_log,
    write,
)
from trainstack.results.report import relative_url

CHROMIUM = os.environ.get("TRAINSTACK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
VIEWPORT = {"width": 1280, "height": 800}


@pytest.fixture()
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = project_copy(tmp_path / "project")
    for stack, values in (("aiacc", AIACC_IMAGES_PER_SEC), ("baseline", BASELINE_IMAGES_PER_SEC)):
        logs = [
            str(write(tmp_path / "logs" / stack, f"run{n}.log", tf_cnn_log(v)))
            for n, v in enumerate(values, 1)
        ]
        ran = run(
            root, "results", "add", stack, "imagenet-tensorflow", *logs, monkeypatch=monkeypatch
        )
        assert ran.code == 0, ran.stderr
    return root


def _report(root: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    ran = run(
        root, "results", "report", "aiacc", "baseline", "-o", str(out), monkeypatch=monkeypatch
    )
    assert ran.code == 0, ran.stderr
    return (out / "index.html").read_text(encoding="utf-8")


def test_the_page_is_self_contained_verdict_first_and_deterministic(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _report(root, root / "report", monkeypatch)
    # Verdict first: before the table, the plots and the provenance.
    verdict = page.index('id="verdict"')
    assert verdict < page.index("<table") < page.index("<h2>Plots") < page.index("Provenance")
    assert (
        "imagenet-tensorflow, images_per_sec: +12.0% (95% CI +11.0% .. +13.0%, p&lt;0.001; "
        "n=3 on aiacc, 3 on baseline): aiacc better"
    ) in page
    # Nothing fetched: no script, no external URL; plots are data: images; logs linked
    # relatively from the page to the results directory.
    assert "<script" not in page and not re.search(r'(src|href)="(https?:)?//', page)
    assert page.count('src="data:image/svg+xml;base64,') == 1
    assert 'href="../results/aiacc/imagenet-tensorflow/run-001.log"' in page
    assert "What this comparison does not cover" in page
    assert "environment unknown on aiacc and baseline" in page
    # Same results, same bytes; only index.html written.
    again = _report(root, root / "report", monkeypatch)
    assert again == page
    assert sorted(p.name for p in (root / "report").iterdir()) == ["index.html"]


def test_a_foreign_index_html_is_never_overwritten(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = root / "site"
    out.mkdir()
    (out / "index.html").write_text("<p>someone's page</p>")
    ran = run_process(root, "results", "report", "aiacc", "baseline", "-o", str(out))
    assert ran.code == 2 and "Traceback" not in ran.stderr
    assert "exists and is not a trainstack report; not overwritten" in ran.stderr
    assert (out / "index.html").read_text() == "<p>someone's page</p>"


@pytest.mark.skipif(
    shutil.which(CHROMIUM) is None,
    reason=f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)",
)
def test_the_page_in_headless_chromium(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) missing")
    _report(root, root / "report", monkeypatch)
    url = (root / "report" / "index.html").as_uri()
    errors: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(url, wait_until="load")
            box = page.locator("#verdict").bounding_box()
            shot = tmp_path / "report.png"
            page.screenshot(path=str(shot))
            images = page.eval_on_selector_all(
                "figure img", "all => all.map(i => [i.complete, i.naturalWidth])"
            )
        finally:
            browser.close()
    assert errors == []
    # Only the page itself and its embedded data: images: no network.
    assert all(u == url or u.startswith("data:") for u in requests), requests
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"]  # above the fold
    assert len(images) == 1 and all(done and width > 0 for done, width in images)  # plot drawn
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


@pytest.mark.parametrize(
    ("path", "out", "url"),
    [
        ("/r/a/run-001.log", "/r/a", "./run-001.log"),
        ("/r/a/javascript:alert(1)", "/r/a", "./javascript%3Aalert%281%29"),
        ("/r/a/run 1#x?.log", "/r/b", "../a/run%201%23x%3F.log"),
    ],
)
def test_a_link_to_a_log_is_always_arelative_url(path: str, out: str, url: str) -> None:
    """Never a scheme (``javascript:``), a fragment or a query: the file, relative."""
    assert relative_url(Path(path), Path(out)) == url
