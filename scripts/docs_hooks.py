"""MkDocs hooks of the documentation site (``hooks:`` in mkdocs.yml).

Search that works when the built site is opened from disk (``file://``): Material's
``offline`` plugin inlines the search index into a script and asks for the iframe-worker
shim, because Chromium and Firefox refuse to start a Web Worker from a ``file://`` page.
The plugin would load that shim from unpkg.com at every page view, which a reader
without a network cannot; the shim is instead the npm package ``iframe-worker`` (pinned
with its hash in package-lock.json, installed by ``npm ci`` with the other development
tools) copied into the site at build time. Without it (no npm) the site still builds and
navigates from disk, and search works when it is served (``make docs-serve``).
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

SHIM_PACKAGE = Path("node_modules", "iframe-worker", "shim", "index.js")
SHIM_IN_SITE = Path("assets", "javascripts", "iframe-worker-shim.js")
"""Where the shim lands in the site; ``extra.polyfills`` in mkdocs.yml names this path."""

log = logging.getLogger("mkdocs.hooks.trainstack")


def on_post_build(config: Any, **_: Any) -> None:
    project = Path(config.config_file_path).parent
    shim = project / SHIM_PACKAGE
    if not shim.is_file():
        log.info("no %s (npm ci): search works only when the site is served", SHIM_PACKAGE)
        return
    target = Path(config.site_dir) / SHIM_IN_SITE
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shim, target)
