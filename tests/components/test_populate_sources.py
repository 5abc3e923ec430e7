"""The oss source through a stand-in `ossutil` checking the exact arguments of ossutil
1.7.19's `cp` (aliyun/ossutil v1.7.19: lib/option.go, the cp command's options in
lib/cp.go, `--sign-version v4` in lib/command.go), the http manifest URL, hostile values
run by the rendered script as data, and a full disk."""

from __future__ import annotations

import hashlib
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from components.populate_marker import MANIFEST, MARKER, POPULATE_SCRIPT, script_inputs
from tests.components.populate_harness import (
    SHELLS,
    TARGET,
    Sandbox,
    Server,
    last_line,
    make_sandbox,
    make_tree,
    prepare,
    run,
    shell,
    spec,
)
from tests.tmpfs import in_small_tmpfs
from trainstack.config.populate import Populate

pytestmark = pytest.mark.parametrize("sh_name", sorted(SHELLS))

# ossutil 1.7.19's cp: flags taking no value, and options taking one (lib/option.go).
_FLAGS = {"-r", "--recursive", "-f", "--force", "--disable-ignore-error"}
_VALUED = {
    "-c", "--config-file", "-e", "--endpoint", "--sign-version", "--region",
    "--checkpoint-dir", "--output-dir",
}  # fmt: skip
STAND_IN = f"""#!{sys.executable}
# A stand-in for ossutil 1.7.19: checks `cp` is called with documented options only,
# with the values the populate script must pass, then copies the "bucket" (a directory).
import json, os, shutil, stat, sys
args = sys.argv[1:]
log = os.environ["STANDIN_LOG"]
def refuse(why):
    open(log, "a").write(json.dumps({{"refused": why, "args": args}}) + "\\n")
    sys.exit(2)
if not args or args[0] != "cp":
    refuse("not cp")
options, positional, i = {{}}, [], 1
while i < len(args):
    if args[i] in {sorted(_FLAGS)!r}:
        options[args[i]] = True
    elif args[i] in {sorted(_VALUED)!r}:
        options[args[i]] = args[i + 1]
        i += 1
    elif args[i].startswith("-"):
        refuse("undocumented option " + args[i])
    else:
        positional.append(args[i])
    i += 1
config = options.get("--config-file") or options.get("-c")
mode = stat.S_IMODE(os.stat(config).st_mode)
credentials = open(config).read()
open(log, "a").write(json.dumps({{"options": options, "positional": positional,
    "config_mode": mode, "config": credentials}}) + "\\n")
source, destination = positional
if os.environ.get("STANDIN_STATUS"):
    print("Error: oss: service returned error: StatusCode=403, ErrorCode=AccessDenied",
          file=sys.stderr)
    sys.exit(int(os.environ["STANDIN_STATUS"]))
bucket_dir = os.path.join(os.environ["STANDIN_BUCKETS"], source[len("oss://"):])
shutil.copytree(bucket_dir, destination, dirs_exist_ok=True)
"""


@pytest.fixture()
def ossutil(tmp_path: Path) -> Path:
    """A bin directory holding the stand-in, and a bucket holding the tree."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "ossutil"
    stand_in.write_text(STAND_IN)
    stand_in.chmod(0o755)
    make_tree(tmp_path / "buckets" / "imagenet-tfrecords" / "tfrecords")
    return bin_dir


def _oss(**changes: Any) -> dict[str, Any]:
    return {
        "kind": "oss",
        "bucket": "imagenet-tfrecords",
        "prefix": "tfrecords",
        "region": "cn-beijing",
        "target": TARGET,
        "credentials": {"secret": "imagenet-oss"},
        **changes,
    }


def _run_oss(
    sh_name: str,
    box: Sandbox,
    bin_dir: Path,
    populate: Populate,
    keep_files: bool = False,
    **env: str,
) -> tuple[Any, list[dict[str, Any]]]:
    """The rendered script with the stand-in first on PATH; returns its result and the
    stand-in's calls."""
    log = bin_dir.parent / "ossutil.log"
    result = run(
        shell(sh_name),
        box,
        populate,
        path=f"{bin_dir}:/usr/bin:/bin",
        keep_files=keep_files,
        extra_env={
            "STANDIN_LOG": str(log),
            "STANDIN_BUCKETS": str(bin_dir.parent / "buckets"),
            "OSS_ACCESS_KEY_ID": "LTAI-test-id",
            "OSS_ACCESS_KEY_SECRET": "test-secret",
            **env,
        },
    )
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return result, calls


def test_oss_copies_with_the_documented_cp_and_credentials_in_a_private_file(
    sh_name: str, box: Sandbox, ossutil: Path
) -> None:
    populate = spec(_oss())
    result, calls = _run_oss(sh_name, box, ossutil, populate)
    assert result.returncode == 0, result.stderr
    [call] = calls
    assert "refused" not in call, call
    work = f"{box.data}/.trainstack-populate-work/tmp"
    assert call["options"] == {
        "-r": True,
        "-f": True,
        "--disable-ignore-error": True,
        "--config-file": f"{work}/ossutil.conf",
        "-e": "oss-cn-beijing.aliyuncs.com",
        "--sign-version": "v4",
        "--region": "cn-beijing",
        "--checkpoint-dir": f"{work}/checkpoint",
        "--output-dir": f"{work}/output",
    }
    assert call["positional"] == ["oss://imagenet-tfrecords/tfrecords/", f"{box.data}/{TARGET}/"]
    # the AccessKey pair only in a file only its owner reads, removed afterwards
    assert call["config_mode"] == 0o600
    assert call["config"] == (
        "[Credentials]\nlanguage=EN\nendpoint=oss-cn-beijing.aliyuncs.com\n"
        "accessKeyID=LTAI-test-id\naccessKeySecret=test-secret\n"
    )
    assert "test-secret" not in result.stdout + result.stderr
    assert not (box.data / ".trainstack-populate-work").exists()
    assert (box.data / MARKER).read_text() == f"{populate.digest}\n"


def test_oss_denied_ends_with_the_url_and_no_marker(
    sh_name: str, box: Sandbox, ossutil: Path
) -> None:
    result, _ = _run_oss(
        sh_name, box, ossutil, spec(_oss(endpoint="oss-cn-beijing-internal.aliyuncs.com")),
        STANDIN_STATUS="1",
    )  # fmt: skip
    assert result.returncode == 1
    assert last_line(result) == (
        "populate failed: oss://imagenet-tfrecords/tfrecords/: ossutil cp exited 1 (its "
        "error is above: 403 AccessDenied, NoSuchBucket, ...)"
    )
    assert "StatusCode=403" in result.stderr
    assert not (box.data / MARKER).exists()
    assert not list(box.data.rglob("ossutil.conf"))


def test_http_files_from_a_manifest_url_checked_first(
    sh_name: str, server: Server, box: Sandbox, tmp_path: Path
) -> None:
    listing = "".join(f"{f['sha256']} {f['url']} {f['path']}\n" for f in server.files())
    root = server.root
    (root / "files.txt").write_text(listing)
    digest = hashlib.sha256(listing.encode()).hexdigest()
    source = {
        "kind": "http",
        "manifestUrl": f"{server.url}/ok/files.txt",
        "manifestSha256": digest,
        "target": TARGET,
    }
    result = run(shell(sh_name), box, spec(source))
    assert result.returncode == 0, result.stderr
    assert len((box.data / MANIFEST).read_text().splitlines()) == 1 + len(server.tree)
    # a list whose bytes changed is refused before any file is fetched
    (root / "files.txt").write_text(listing + f"{'0' * 64} {server.url}/ok/x evil\n")
    box2 = make_sandbox(tmp_path / "second")
    changed = run(shell(sh_name), box2, spec(source))
    assert changed.returncode == 1
    assert last_line(changed).endswith(f"/ok/files.txt: sha256 {_sha(root / 'files.txt')}, "
                                       f"expected {digest}")  # fmt: skip
    assert not (box2.data / TARGET).exists()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


HOSTILE = "$(touch {mark})`touch {mark}`;touch {mark}"


def test_hostile_values_are_data_never_run(
    sh_name: str, box: Sandbox, tmp_path: Path, ossutil: Path
) -> None:
    mark = tmp_path / "ran"
    hostile = HOSTILE.format(mark=mark)
    # values the model refuses reach the script only if someone bypasses it: build the
    # spec with them anyway, as a tampered ConfigMap or environment would carry them
    populate = spec(_oss())
    prepare(box, populate)
    (box.config / "layout").write_text(f"1 {hostile}\n")
    result, calls = _run_oss(
        sh_name, box, ossutil, populate, keep_files=True,
        TRAINSTACK_OSS_BUCKET=hostile, TRAINSTACK_OSS_PREFIX=hostile,
        TRAINSTACK_OSS_REGION=hostile, TRAINSTACK_FETCH_TARGET="../" + hostile,
    )  # fmt: skip
    assert result.returncode == 1
    assert "unsafe path" in last_line(result)
    assert not mark.exists()
    assert calls == []
    # the same values where the script passes them on (not a path): still only data
    result, calls = _run_oss(
        sh_name, box, ossutil, populate, keep_files=True,
        TRAINSTACK_OSS_BUCKET=hostile, TRAINSTACK_OSS_REGION=hostile,
    )  # fmt: skip
    assert not mark.exists()
    assert calls and calls[0]["positional"][0] == f"oss://{hostile}/tfrecords/"
    assert calls[0]["options"]["--region"] == hostile
    assert last_line(result).startswith(f"populate failed: oss://{hostile}/tfrecords/: ")


def test_hostile_http_lines_are_refused_unrun(
    sh_name: str, box: Sandbox, tmp_path: Path, server: Server
) -> None:
    mark = tmp_path / "ran"
    hostile = HOSTILE.format(mark=mark)
    populate = spec({"kind": "http", "files": server.files(), "target": TARGET})
    prepare(box, populate)
    files = box.config / "http-files"
    for line, expected in (
        (f"{'a' * 64} {server.url}/ok/$(touch%20{mark}) x", "unsafe characters in the URL"),
        (f"{'a' * 64} {server.url}/ok/x {hostile}", "a line with more than"),
        (f"{'a' * 64} {server.url}/ok/x `touch${{IFS}}{mark}`", "unsafe path"),
        (f"{'a' * 64} {server.url}/ok/x ../../escape", "unsafe path"),
        (f"$(touch${{IFS}}{mark}) {server.url}/ok/x y", "is not 64 lowercase hex digits"),
    ):
        files.write_text(line + "\n")
        result = run(shell(sh_name), box, populate, keep_files=True)
        assert result.returncode == 1, line
        assert expected in last_line(result), (line, last_line(result))
        assert not mark.exists()
        assert not (tmp_path / "escape").exists()


def test_a_full_disk_ends_with_the_file_and_no_marker(
    sh_name: str, server: Server, tmp_path: Path
) -> None:
    sh = shell(sh_name)
    # one shard of 64 KiB: more than the 16 KiB tmpfs mounted over the data directory
    big = server.root / "train" / "train-00002-of-00004"
    big.write_bytes(b"x" * 64 * 1024)
    files = [dict(item) for item in server.files()]
    source = {"kind": "http", "files": files, "target": TARGET}
    populate = spec(
        source, layout={"files": [{"glob": f"{TARGET}/*/*", "count": 6}], "minBytes": 1}
    )
    box = make_sandbox(tmp_path / "box")
    prepare(box, populate)
    arguments = {"sh": sh, "script": POPULATE_SCRIPT, "env": _env(box, populate)}
    found = in_small_tmpfs(box.data, 16, _DISK_PROGRAM, json.dumps(arguments))
    assert found["status"] == 1
    assert found["last"].startswith(
        f"populate failed: {server.url}/ok/train/train-00002-of-00004: "
    )
    assert "disk full" in found["last"] or "No space left" in found["last"]
    assert MARKER not in found["names"]


def _env(box: Sandbox, populate: Populate) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "TMPDIR": str(box.tmp),
        "TRAINSTACK_DATA_DIR": str(box.data),
        "TRAINSTACK_POPULATE_DIGEST": populate.digest,
        **script_inputs(populate, str(box.config)).env,
    }


_DISK_PROGRAM = """
import json, os, subprocess, sys
mount, args = sys.argv[1], json.loads(sys.argv[2])
result = subprocess.run([*args["sh"], "-c", args["script"], "populate"], env=args["env"],
                        capture_output=True, text=True, timeout=60)
lines = result.stderr.strip().splitlines()
print(json.dumps({"status": result.returncode, "last": lines[-1] if lines else "",
                  "names": sorted(os.listdir(mount))}))
"""


class _Sts(BaseHTTPRequestHandler):
    """A stand-in for STS: records the form of AssumeRoleWithOIDC, answers credentials."""

    forms: list[dict[str, list[str]]]

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        self.forms.append(parse_qs(body))
        answer = {
            "RequestId": "r",
            "Credentials": {
                "SecurityToken": "sts-token",
                "AccessKeyId": "STS.id",
                "AccessKeySecret": "sts-secret",
                "Expiration": "2026-12-07T03:00:00Z",
            },
        }
        content = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def log_message(self, *args: Any) -> None:
        pass


def test_rrsa_trades_the_oidc_token_for_sts_credentials(
    sh_name: str, box: Sandbox, ossutil: Path, tmp_path: Path
) -> None:
    forms: list[dict[str, list[str]]] = []
    sts = ThreadingHTTPServer(("127.0.0.1", 0), type("Sts", (_Sts,), {"forms": forms}))
    threading.Thread(target=sts.serve_forever, daemon=True).start()
    token = tmp_path / "oidc-token"
    token.write_text("eyJhbGciOiJSUzI1NiJ9.oidc")
    rrsa = {"rrsa": True, "serviceAccount": "imagenet-populate"}
    try:
        result, calls = _run_oss(
            sh_name, box, ossutil, spec(_oss(credentials=rrsa)),
            TRAINSTACK_STS_ENDPOINT=f"http://127.0.0.1:{sts.server_address[1]}",
            ALIBABA_CLOUD_ROLE_ARN="acs:ram::123:role/populate",
            ALIBABA_CLOUD_OIDC_PROVIDER_ARN="acs:ram::123:oidc-provider/ack-rrsa-c1",
            ALIBABA_CLOUD_OIDC_TOKEN_FILE=str(token),
        )  # fmt: skip
    finally:
        sts.shutdown()
        sts.server_close()
    assert result.returncode == 0, result.stderr
    [form] = forms
    assert {key: value for key, [value] in form.items()} == {
        "Action": "AssumeRoleWithOIDC",
        "Version": "2015-04-01",
        "Format": "JSON",
        "RoleSessionName": "trainstack-populate",
        "DurationSeconds": "3600",
        "RoleArn": "acs:ram::123:role/populate",
        "OIDCProviderArn": "acs:ram::123:oidc-provider/ack-rrsa-c1",
        "OIDCToken": "eyJhbGciOiJSUzI1NiJ9.oidc",
    }
    [call] = calls
    assert call["config"] == (
        "[Credentials]\nlanguage=EN\nendpoint=oss-cn-beijing.aliyuncs.com\n"
        "accessKeyID=STS.id\naccessKeySecret=sts-secret\nstsToken=sts-token\n"
    )
    assert call["config_mode"] == 0o600
