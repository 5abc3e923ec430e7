"""What the populate script tests share: a loopback HTTP server serving a small
TFRecord-shaped tree (and misbehaving on request), the shells, and a run of the
rendered script as the Job runs it (its inputs from :func:`script_inputs`)."""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from components.populate_marker import POPULATE_SCRIPT, ScriptInputs, script_inputs
from trainstack.config.populate import Populate

SHELLS = {
    "dash": ["dash"],
    "bash --posix": ["bash", "--posix"],
    "busybox sh": ["busybox", "sh"],
}
TARGET = "imagenet/imagenet_data"
SHARDS = {"train": 4, "validation": 2}


def shell(name: str) -> list[str]:
    """The shell's command line, or a skip naming what is missing."""
    command = SHELLS[name]
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    return command


def busybox_applets(directory: Path) -> Path:
    """A directory of links to busybox's applets (ls, tr, sort, sha256sum, sed...), put
    first on PATH under busybox sh so the script runs with busybox's tools too, as in a
    busybox-based image (curl and git stay the system's: busybox has neither)."""
    busybox = shutil.which("busybox")
    assert busybox is not None
    directory.mkdir(exist_ok=True)
    applets = subprocess.run(
        [busybox, "--list"], capture_output=True, text=True, check=True
    ).stdout.split()
    for applet in applets:
        link = directory / applet
        if applet not in {"busybox", "sh", "python"} and not link.exists():
            link.symlink_to(busybox)
    return directory


def _record(payload: bytes) -> bytes:
    # A TFRecord: length, its (here zero) masked CRC, the data, the data's CRC.
    return struct.pack("<QI", len(payload), 0) + payload + struct.pack("<I", 0)


def make_tree(root: Path) -> dict[str, bytes]:
    """train-0000i-of-00004 and validation-0000i-of-00002 under train/ and validation/,
    a few records each; returns {path under the target: bytes}."""
    tree: dict[str, bytes] = {}
    for subset, shards in SHARDS.items():
        for index in range(shards):
            name = f"{subset}/{subset}-{index:05d}-of-{shards:05d}"
            tree[name] = b"".join(
                _record(f"{name} record {n}".encode() * (index + 2)) for n in range(3)
            )
    for name, content in tree.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content)
    return tree


class _Handler(BaseHTTPRequestHandler):
    """``/<mode>/<path>``: ``ok`` serves the file, ``403``/``404`` answer that status,
    ``stall`` sends half the body then waits, ``short`` promises more than it sends."""

    root: Path

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        mode, _, path = self.path.lstrip("/").partition("/")
        path = path.partition("?")[0]
        file = self.root / path
        if mode in {"403", "404"} or not file.is_file():
            self.send_error(int(mode) if mode in {"403", "404"} else 404)
            return
        content = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Length", str(len(content) + (100 if mode == "short" else 0)))
        self.end_headers()
        if mode == "stall":
            self.wfile.write(content[: len(content) // 2])
            self.wfile.flush()
            time.sleep(8)
            return
        self.wfile.write(content)

    def log_message(self, *args: Any) -> None:
        pass


@dataclass(frozen=True)
class Server:
    """The loopback server: its base URL and the tree it serves."""

    url: str
    tree: dict[str, bytes]
    root: Path

    def files(self, mode: str = "ok", **changes: str) -> list[dict[str, str]]:
        """The http source's files, every URL in ``mode``; ``changes`` maps a path to
        the mode of its own URL (``{"train/train-00001-of-00004": "404"}``)."""
        return [
            {
                "url": f"{self.url}/{changes.get(path, mode)}/{path}",
                "sha256": hashlib.sha256(content).hexdigest(),
                "path": path,
            }
            for path, content in sorted(self.tree.items())
        ]


def serve(root: Path) -> Iterator[Server]:
    """A server on 127.0.0.1 for the test's duration."""
    tree = make_tree(root)
    handler = type("Handler", (_Handler,), {"root": root})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{server.server_address[1]}", tree, root)
    finally:
        server.shutdown()
        server.server_close()


def spec(source: dict[str, Any], **changes: Any) -> Populate:
    """A populate spec of ``source`` whose layout is the served tree's."""
    document: dict[str, Any] = {
        "stack": "aiacc",
        "image": "registry/populate:1",
        "source": source,
        "layout": {
            "files": [
                {"glob": f"{TARGET}/{subset}/{subset}-*", "count": shards}
                for subset, shards in SHARDS.items()
            ],
            "minBytes": 100,
            "maxBytes": 1_000_000,
        },
        **changes,
    }
    return Populate.model_validate(document)


@dataclass(frozen=True)
class Sandbox:
    """A test's directories: the mount (the data), the ConfigMap, and a private temp."""

    root: Path

    @property
    def data(self) -> Path:
        return self.root / "mount"

    @property
    def config(self) -> Path:
        return self.root / "config"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    def outside(self) -> dict[str, bytes]:
        """Every file outside the mount (the ConfigMap, the temp, HOME...)."""
        return {
            str(path.relative_to(self.root)): path.read_bytes()
            for path in sorted(self.root.rglob("*"))
            if path.is_file() and self.data not in path.parents
        }


def make_sandbox(root: Path) -> Sandbox:
    box = Sandbox(root)
    for directory in (box.data, box.config, box.tmp, root / "home"):
        directory.mkdir(parents=True, exist_ok=True)
    return box


def prepare(box: Sandbox, populate: Populate) -> ScriptInputs:
    """The spec's inputs, its ConfigMap's files written (the same each time)."""
    inputs = script_inputs(populate, str(box.config))
    for name, text in inputs.files.items():
        (box.config / name).write_text(text)
    return inputs


def run(
    sh: list[str],
    box: Sandbox,
    populate: Populate,
    *,
    command: list[str] | None = None,
    path: str = "/usr/bin:/bin",
    extra_env: dict[str, str] | None = None,
    timeout: float = 60,
    keep_files: bool = False,
) -> subprocess.CompletedProcess[str]:
    """The rendered script, run as the Job runs it: the ConfigMap's files written, the
    environment of :func:`script_inputs` (plus the Secret's variables in ``extra_env``);
    ``keep_files``: the ConfigMap's files as the test left them (tampered with)."""
    inputs = script_inputs(populate, str(box.config)) if keep_files else prepare(box, populate)
    if sh[0] == "busybox":
        path = f"{busybox_applets(box.root.parent / 'busybox-bin')}:{path}"
    env = {
        "PATH": path,
        "HOME": str(box.root / "home"),
        "TMPDIR": str(box.tmp),
        "LC_ALL": "C",
        "TRAINSTACK_DATA_DIR": str(box.data),
        "TRAINSTACK_POPULATE_DIGEST": populate.digest,
        "TRAINSTACK_POPULATE_OVERWRITE": "true" if populate.overwrite else "false",
        **inputs.env,
        **(extra_env or {}),
    }
    return subprocess.run(
        [*sh, "-c", POPULATE_SCRIPT, "populate", *(command or populate.command or [])],
        env=env,
        cwd=box.root / "home",
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def last_line(result: subprocess.CompletedProcess[str]) -> str:
    """The last line the script wrote (stderr: where failures go)."""
    lines = (result.stderr or result.stdout).strip().splitlines()
    return lines[-1] if lines else ""
