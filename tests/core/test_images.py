"""Image references: Docker's registry rule, one spelling per image, mirrors in objects."""

from __future__ import annotations

import pytest

from trainstack.core.images import normalized, registry_host, with_images


@pytest.mark.parametrize(
    ("reference", "host", "full"),
    [
        ("alpine:3.21", "docker.io", "docker.io/library/alpine:3.21"),
        ("mpioperator/mpi-operator:0.8.2", "docker.io", "docker.io/mpioperator/mpi-operator:0.8.2"),
        # one image, however it is spelt (Docker's splitDockerDomain)
        ("docker.io/alpine:3.21", "docker.io", "docker.io/library/alpine:3.21"),
        ("index.docker.io/alpine:3.21", "docker.io", "docker.io/library/alpine:3.21"),
        (
            "registry.k8s.io/kueue/kueue:v0.19.2",
            "registry.k8s.io",
            "registry.k8s.io/kueue/kueue:v0.19.2",
        ),
        ("localhost/team/x:1", "localhost", "localhost/team/x:1"),
        ("host:5000/x", "host:5000", "host:5000/x"),
    ],
)
def test_the_registry_is_the_first_part_only_when_it_looks_like_a_host(
    reference: str, host: str, full: str
) -> None:
    assert registry_host(reference) == host
    assert normalized(reference) == full


def test_every_container_of_every_pod_template_is_mirrored_and_nothing_else() -> None:
    deployment = {
        "kind": "Deployment",
        "metadata": {"name": "mpi-operator", "labels": {"image": "keep"}},
        "spec": {
            "template": {
                "spec": {
                    "initContainers": [{"name": "init", "image": "busybox:1"}],
                    "containers": [{"name": "c", "image": "mpioperator/mpi-operator:0.8.2"}],
                }
            }
        },
    }
    mirrors = {"docker.io/mpioperator/mpi-operator:0.8.2": "acr.example/mpi:0.8.2"}
    changed = with_images(deployment, lambda image: mirrors.get(normalized(image), image))
    spec = changed["spec"]["template"]["spec"]
    assert spec["containers"] == [{"name": "c", "image": "acr.example/mpi:0.8.2"}]
    assert spec["initContainers"] == [{"name": "init", "image": "busybox:1"}]
    assert changed["metadata"] == deployment["metadata"]
    # the object it was given is left as it was
    assert deployment["spec"]["template"]["spec"]["containers"][0]["image"] == (
        "mpioperator/mpi-operator:0.8.2"
    )
