"""The populate Job's script, and the wait other stacks' clusters run, as shell text.

The steps live in ``components/populate/*.sh`` (POSIX sh: run by dash, ``bash --posix``
and busybox sh in the tests) and are joined here in order:

- ``lib.sh``: the directory, the digest, :func:`fail` (the one last line, the failure
  file ``.trainstack-populate-failed`` and the termination log), path checks;
- ``fetch_http.sh``, ``fetch_oss.sh``, ``rrsa.sh``, ``convert.sh``: the source kinds;
- ``verify.sh``: the layout check and the manifest;
- ``main.sh``: the marker ``.trainstack-populated`` holds this spec's digest: nothing to
  do (exit 0); it holds another spec's, or the directory holds files this spec did not
  write: refused (exit 3) unless ``$TRAINSTACK_POPULATE_OVERWRITE`` is ``true``;
  otherwise the marker and manifest are removed first (no reader takes a half-filled
  dataset for a filled one), the source is fetched (and converted), the spec's command
  (the script's arguments) runs, verify writes the manifest, and only then the marker.

Every value reaches the script as an environment variable or a file (see
:mod:`components.populate_job`), never as script text: nothing in a stack is evaluated.
``WAIT_SCRIPT`` (``wait.sh``) waits for the marker, or ends with the populate's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trainstack.config.populate import Populate
from trainstack.config.populate_sources import (
    ConvertSource,
    HttpSource,
    OssRrsaCredentials,
    OssSource,
)

MARKER = ".trainstack-populated"
FAILED = ".trainstack-populate-failed"
MANIFEST = ".trainstack-manifest"
MANIFEST_DIGEST = ".trainstack-manifest.sha256"
_STEPS = ("lib", "fetch_http", "fetch_oss", "rrsa", "convert", "verify", "main")
_DIRECTORY = Path(__file__).with_name("populate")


def _script(*names: str) -> str:
    return "\n".join((_DIRECTORY / f"{name}.sh").read_text() for name in names)


POPULATE_SCRIPT = _script(*_STEPS)
WAIT_SCRIPT = _script("wait")

CONFIG_MOUNT = "/etc/trainstack-populate"
"""Where the Job mounts the ConfigMap of :func:`script_inputs`' files."""


def script_inputs(spec: Populate, config_dir: str = CONFIG_MOUNT) -> ScriptInputs:
    """The environment and files (a ConfigMap mounted at ``config_dir``) that tell the
    script what to do: the source, the layout, the verify mode. Credentials are not here
    (the Job reads them from the Secret); lists go in files, not variables (one variable
    is limited to 128 KiB by Linux' MAX_ARG_STRLEN)."""
    layout = spec.layout
    env = {
        "TRAINSTACK_SOURCE_KIND": spec.source.kind,
        "TRAINSTACK_VERIFY": spec.verify,
        "TRAINSTACK_LAYOUT": f"{config_dir}/layout",
        "TRAINSTACK_MIN_BYTES": str(layout.min_bytes),
    }
    if layout.max_bytes is not None:
        env["TRAINSTACK_MAX_BYTES"] = str(layout.max_bytes)
    files = {"layout": layout.lines()}
    source = spec.source
    fetch = source.from_ if isinstance(source, ConvertSource) else source
    if isinstance(fetch, OssSource):
        env |= {
            "TRAINSTACK_FETCH": "oss",
            "TRAINSTACK_FETCH_TARGET": fetch.target,
            "TRAINSTACK_OSS_BUCKET": fetch.bucket,
            "TRAINSTACK_OSS_REGION": fetch.region,
        }
        if fetch.prefix is not None:
            env["TRAINSTACK_OSS_PREFIX"] = fetch.prefix
        if fetch.endpoint is not None:
            env["TRAINSTACK_OSS_ENDPOINT"] = fetch.endpoint
        if isinstance(fetch.credentials, OssRrsaCredentials):
            env["TRAINSTACK_OSS_RRSA"] = "true"
    elif isinstance(fetch, HttpSource):
        env |= {
            "TRAINSTACK_FETCH": "http",
            "TRAINSTACK_FETCH_TARGET": fetch.target,
            "TRAINSTACK_HTTP_CONNECT_TIMEOUT": str(fetch.connect_timeout_seconds),
            "TRAINSTACK_HTTP_STALL_SECONDS": str(fetch.stall_seconds),
        }
        if fetch.files is not None:
            files["http-files"] = "".join(
                f"{item.sha256} {item.url} {item.path}\n" for item in fetch.files
            )
            env["TRAINSTACK_HTTP_FILES"] = f"{config_dir}/http-files"
        else:
            env["TRAINSTACK_HTTP_MANIFEST_URL"] = str(fetch.manifest_url)
            env["TRAINSTACK_HTTP_MANIFEST_SHA256"] = str(fetch.manifest_sha256)
    if isinstance(source, ConvertSource):
        converter = source.converter
        env |= {
            "TRAINSTACK_CONVERT_TARGET": source.target,
            "TRAINSTACK_CONVERT_REPOSITORY": converter.repository,
            "TRAINSTACK_CONVERT_COMMIT": converter.commit,
            "TRAINSTACK_CONVERT_DIRECTORY": converter.directory,
            "TRAINSTACK_CONVERT_TRAIN_SHARDS": str(converter.train_shards),
            "TRAINSTACK_CONVERT_VALIDATION_SHARDS": str(converter.validation_shards),
            "TRAINSTACK_CONVERT_THREADS": str(converter.threads),
        }
    return ScriptInputs(env=env, files=files)


@dataclass(frozen=True)
class ScriptInputs:
    """Environment variables (name: value) and ConfigMap files (name: text)."""

    env: dict[str, str]
    files: dict[str, str]
