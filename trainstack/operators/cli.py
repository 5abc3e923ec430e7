"""``trainstack operators``: what the catalog knows, so that a stack can pick a release."""

from __future__ import annotations

from trainstack.operators.registry import families, known_versions
from trainstack.training_job.frameworks import by_crd
from trainstack.training_job.settings import SETTINGS


def operators() -> None:
    """List every operator release of the catalog: how it installs, what it serves and honours."""
    for family in families():
        print(f"{family.key}: {family.title} ({family.summary})")
        for version in known_versions(family.key):
            release = family.releases[version]
            install = release.install
            where = ", ".join(f"{k} {v}" for k, v in install.provenance().items() if v)
            print(f"  {version}: {install.kind} in namespace {install.namespace} ({where})")
            for served in release.serves:
                if served.dialect is None:
                    print(f"    {served.kind} {served.api_version}: not rendered by the chart")
                    continue
                spec = by_crd(served.crd)
                dropped = sorted(
                    setting.key
                    for setting in SETTINGS
                    if setting.key not in served.honours
                    and (spec is None or setting.applies_to(spec.name))
                )
                print(
                    f"    {served.kind} {served.api_version}: operatorApi {served.dialect}, "
                    f"Kueue {'can' if served.suspend else 'cannot'} hold it"
                    + (f", ranks over {served.transport}" if served.transport else "")
                    + (f"; drops {', '.join(dropped)}" if dropped else "")
                )
            print(f"    source: {release.source}")
            for fact in release.unverified:
                print(f"    not verified offline: {fact}")
