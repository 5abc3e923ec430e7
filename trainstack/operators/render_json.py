"""``trainstack operators --format json``: the catalog for scripts (docs/scripting.md).

``{"format": "trainstack-operators/1", "operators": [...], "requirements": [...],
"coexistence": [...]}``: per operator family its releases (how each installs, what it
serves and whether Kueue can hold it, the settings it drops, where it comes from, what
deploying it pulls and the key that mirrors each pull, what could not be verified offline)
and the versions the catalog refuses, with why; then the version rules between families.
The same facts, in the same order, as the text listing.
"""

from __future__ import annotations

from typing import Any

from trainstack.console.json_output import json_text
from trainstack.operators.compatibility import COEXISTENCE, REQUIREMENTS, Versions
from trainstack.operators.registry import families, known_versions
from trainstack.training_job.frameworks import by_crd
from trainstack.training_job.settings import SETTINGS

OPERATORS_FORMAT = "trainstack-operators/1"


def dropped_settings(served: Any) -> list[str]:
    """The job settings no release serving ``served`` honours (of its framework), sorted."""
    spec = by_crd(served.crd)
    return sorted(
        setting.key
        for setting in SETTINGS
        if setting.key not in served.honours and (spec is None or setting.applies_to(spec.name))
    )


def operators_json() -> str:
    """The whole catalog as one JSON document, with a newline."""
    document = {
        "format": OPERATORS_FORMAT,
        "operators": [_family(listed) for listed in families()],
        "requirements": [
            {
                "family": rule.family,
                "versions": _range(rule.versions),
                "needs": rule.needs,
                "needsVersions": _range(rule.needs_versions),
                "whileQueued": rule.queued,
                "reason": rule.reason,
            }
            for rule in REQUIREMENTS
        ],
        "coexistence": [
            {"first": pair.first, "second": pair.second, "how": pair.how} for pair in COEXISTENCE
        ],
    }
    return json_text(document)


def _family(listed: Any) -> dict[str, Any]:
    return {
        "key": listed.key,
        "title": listed.title,
        "summary": listed.summary,
        "configuredAt": listed.configured_at,
        "releases": [
            _release(listed, version, listed.releases[version])
            for version in known_versions(listed.key)
        ],
        "withdrawn": [
            {"version": version, "why": why} for version, why in sorted(listed.withdrawn.items())
        ],
    }


def _release(listed: Any, version: str, release: Any) -> dict[str, Any]:
    install = release.install
    return {
        "version": version,
        "install": {
            "kind": install.kind,
            "namespace": install.namespace,
            "provenance": {key: value for key, value in install.provenance().items() if value},
        },
        "serves": [
            {
                "kind": served.kind,
                "apiVersion": served.api_version,
                "operatorApi": served.dialect,
                "kueueCanHold": bool(served.suspend),
                "drops": [] if served.dialect is None else dropped_settings(served),
            }
            for served in release.serves
        ],
        "source": release.source,
        "published": release.published or None,
        "pulls": [
            {
                "reference": pull.reference,
                "what": pull.what,
                "verified": pull.verified,
                "mirror": f"{listed.configured_at}.{pull.mirror}",
            }
            for pull in release.pulls
        ],
        "unverified": list(release.unverified),
    }


def _range(versions: Versions) -> dict[str, str | None]:
    return {"atLeast": versions.at_least, "below": versions.below}
