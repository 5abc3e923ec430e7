"""What a stack's populate Jobs fetch at deploy time, each with the key that points it at a
mirror: the Job's image (the populate Job's and the one waiting for it), the data source
(an OSS prefix, HTTP(S) files, a manifest of them), the converter's repository, and the
URLs written in the optional ``command`` (found in its text: trainstack neither runs nor
parses it, so a fetch it builds from pieces is not seen).

An OSS source is fetched from ``<bucket>.<endpoint>``, the endpoint being
``source.endpoint`` or ``oss-<region>.aliyuncs.com`` when unset (the populate script's
default, components/populate/fetch_oss.sh): a bucket in the cluster's own region leaves
the list, one whose region is still a placeholder stays on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from trainstack.config.data_sources import ResolvedDataset
from trainstack.config.populate import Populate
from trainstack.config.populate_sources import ConvertSource, HttpSource, OssSource
from trainstack.core.names import is_placeholder
from trainstack.plan.outside_pull import NODES, POPULATE_JOB, OutsidePull

# A URL in shell text ends at a space, a quote or a separator the shell would read.
_COMMAND_URL = re.compile(r"(?:https?|git|ssh)://[^\s\"'`;|&()<>]+")


def data_pulls(datasets: tuple[ResolvedDataset, ...]) -> Iterator[OutsidePull]:
    """The fetches of the populate (or wait) Job of each dataset that has one."""
    for item in datasets:
        spec, reference = item.populate, item.reference
        if spec is None or reference is None:
            continue
        key = f"{reference.stack.source}: {reference.key}.populate"
        if not is_placeholder(spec.image):  # else listed under "set before deploying"
            role = "populate Job" if item.populates else "Job waiting for the populate Job"
            what = f"image of the {role} of dataset {item.name}"
            yield OutsidePull(NODES, spec.image, what, f"{key}.image")
        if item.populates:
            yield from _source(spec, item.name, key)


def _source(spec: Populate, dataset: str, key: str) -> Iterator[OutsidePull]:
    source = spec.source
    if isinstance(source, ConvertSource):
        yield from _fetch(source.from_, dataset, f"{key}.source.from", "raw ILSVRC2012 tars")
        converter = source.converter
        what = f"converter of dataset {dataset} (git clone, commit {converter.commit})"
        repository = f"{key}.source.converter.repository"
        yield OutsidePull(POPULATE_JOB, converter.repository, what, repository)
    elif isinstance(source, OssSource | HttpSource):
        yield from _fetch(source, dataset, f"{key}.source", "data")
    for url in sorted(set(_COMMAND_URL.findall(" ".join(spec.command or [])))):
        what = f"URL in the populate command of dataset {dataset} (fetched by the command)"
        yield OutsidePull(POPULATE_JOB, url, what, f"{key}.command")


def _fetch(
    source: OssSource | HttpSource, dataset: str, key: str, data: str
) -> Iterator[OutsidePull]:
    if isinstance(source, OssSource):
        endpoint = source.endpoint or f"oss-{source.region}.aliyuncs.com"
        what = f"{data} of dataset {dataset} (ossutil cp -r, endpoint {endpoint})"
        host = f"{source.bucket}.{endpoint}"
        yield OutsidePull(
            POPULATE_JOB, source.url, what, f"{key} (bucket, region, endpoint)", host=host
        )
        return
    if source.manifest_url is not None:
        what = f"list of the {data} files of dataset {dataset} (each file: from its own URL)"
        yield OutsidePull(POPULATE_JOB, source.manifest_url, what, f"{key}.manifestUrl")
        return
    by_host: dict[str, int] = {}
    for item in source.files or []:
        origin = _origin(item.url)
        by_host[origin] = by_host.get(origin, 0) + 1
    for origin, count in sorted(by_host.items()):
        what = f"{count} {data} file(s) of dataset {dataset} (sha256 checked)"
        yield OutsidePull(POPULATE_JOB, origin, what, f"{key}.files[].url")


def _origin(url: str) -> str:
    """``https://host[:port]/`` of a URL (a placeholder stays as it is)."""
    if is_placeholder(url):
        return url
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"
