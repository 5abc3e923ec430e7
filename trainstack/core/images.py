"""Container image references: where an image is pulled from, and one spelling of each.

Docker's rule for a reference without a registry (github.com/distribution/reference,
normalize.go ``splitDockerDomain``): the first path component names the registry only if
it contains ``.`` or ``:`` or is ``localhost``; otherwise the image is on Docker Hub,
``docker.io``, and a single-component name is under ``library/``. So ``alpine:3.21``,
``library/alpine:3.21`` and ``docker.io/library/alpine:3.21`` are one image.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

DOCKER_HUB = "docker.io"


def split_registry(reference: str) -> tuple[str, str]:
    """``(registry host, path[:tag][@digest])`` of an image reference, Docker's way: on
    Docker Hub (named or not, or as ``index.docker.io``) a single-component name is under
    ``library/`` (``splitDockerDomain``: ``docker.io/alpine`` is ``alpine``)."""
    first, slash, rest = reference.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        host, path = (DOCKER_HUB if first == "index.docker.io" else first), rest
    else:
        host, path = DOCKER_HUB, reference
    if host == DOCKER_HUB and "/" not in path:
        path = f"library/{path}"
    return host, path


def normalized(reference: str) -> str:
    """The fully qualified spelling of ``reference`` (``docker.io/library/alpine:3.21``)."""
    host, path = split_registry(reference)
    return f"{host}/{path}"


def registry_host(reference: str) -> str:
    """The registry an image is pulled from (``docker.io`` for Docker Hub's images)."""
    return split_registry(reference)[0]


_CONTAINER_LISTS = ("containers", "initContainers", "ephemeralContainers")


def with_images(value: Any, mirrored: Callable[[str], str]) -> Any:
    """``value`` (an object, or any part of one) with each container's ``image`` replaced
    by ``mirrored(image)``, wherever a pod spec sits in it (a Deployment's template, a
    CronJob's job template...); everything else unchanged. ``value`` is not modified."""
    if isinstance(value, list):
        return [with_images(item, mirrored) for item in value]
    if not isinstance(value, dict):
        return value
    copied = {key: with_images(item, mirrored) for key, item in value.items()}
    for key in _CONTAINER_LISTS:
        containers = copied.get(key)
        if isinstance(containers, list):
            copied[key] = [
                {**c, "image": mirrored(c["image"])}
                if isinstance(c, dict) and isinstance(c.get("image"), str)
                else c
                for c in containers
            ]
    return copied


def container_images(value: Any) -> list[str]:
    """Every container image in ``value`` (an object), wherever a pod spec sits, in order."""
    found: list[str] = []
    if isinstance(value, list):
        for item in value:
            found += container_images(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in _CONTAINER_LISTS and isinstance(item, list):
                found += [
                    c["image"]
                    for c in item
                    if isinstance(c, dict) and isinstance(c.get("image"), str)
                ]
            else:
                found += container_images(item)
    return found
