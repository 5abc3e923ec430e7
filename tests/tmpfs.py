"""A Python program run with a real small tmpfs mounted, in a private mount namespace.

``unshare -rm`` makes a user and mount namespace (no root needed where user namespaces
are allowed); the tmpfs exists only for the program. Tests that need a full disk skip,
saying why, where neither is available.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def in_small_tmpfs(mount: Path, size_kib: int, program: str, *args: object) -> Any:
    """Run ``python -c program MOUNT ARGS...`` with a tmpfs of ``size_kib`` at ``mount``;
    returns the JSON the program printed."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed: cannot mount a test tmpfs")
    mount.mkdir(exist_ok=True)
    script = f'mount -t tmpfs -o size={size_kib}k tmpfs "$1" && shift 2 && exec "$@"'
    command = [sys.executable, "-c", program, str(mount), *map(str, args)]
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(mount), "--", *command],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if result.returncode != 0 and "mount" in result.stderr:
        pytest.skip(f"cannot mount a tmpfs in a user namespace here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
