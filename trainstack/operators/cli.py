"""``trainstack operators``: what the catalog knows, so that a stack can pick a release."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer


class OperatorsFormat(StrEnum):
    """How the catalog is printed."""

    text = "text"
    json = "json"


def operators(
    output_format: Annotated[
        OperatorsFormat,
        typer.Option("--format", metavar="FORMAT", help="text, or json (docs/scripting.md)."),
    ] = OperatorsFormat.text,
) -> None:
    """List every operator release of the catalog: how it installs, what it serves and honours."""
    # The catalog loads here, not at start-up: every other command imports this module.
    from trainstack.operators.compatibility import COEXISTENCE, REQUIREMENTS
    from trainstack.operators.registry import families, family, known_versions
    from trainstack.operators.render_json import dropped_settings, operators_json

    if output_format is OperatorsFormat.json:
        print(operators_json(), end="")
        return
    for listed in families():
        print(f"{listed.key}: {listed.title} ({listed.summary})")
        for version in known_versions(listed.key):
            release = listed.releases[version]
            install = release.install
            where = ", ".join(f"{k} {v}" for k, v in install.provenance().items() if v)
            print(f"  {version}: {install.kind} in namespace {install.namespace} ({where})")
            for served in release.serves:
                if served.dialect is None:
                    print(f"    {served.kind} {served.api_version}: not rendered by the chart")
                    continue
                dropped = dropped_settings(served)
                print(
                    f"    {served.kind} {served.api_version}: operatorApi {served.dialect}, "
                    f"Kueue {'can' if served.suspend else 'cannot'} hold it"
                    + (f", ranks over {served.transport}" if served.transport else "")
                    + (f"; drops {', '.join(dropped)}" if dropped else "")
                )
            print(f"    source: {release.source}")
            if release.published:
                print(f"    published: {release.published}")
            for pull in release.pulls:
                note = "" if pull.verified else " (not verified offline)"
                print(
                    f"    pulls {pull.reference}: {pull.what}{note}; mirror: "
                    f"{listed.configured_at}.{pull.mirror}"
                )
            for fact in release.unverified:
                print(f"    not verified offline: {fact}")
        for version, why in sorted(listed.withdrawn.items()):
            print(f"  {version}: refused, {why}")
    print("releases that work together (checked for every stack):")
    for rule in REQUIREMENTS:
        queued = f" while Kueue queues {rule.queued}" if rule.queued else ""
        print(
            f"  {family(rule.family).title} {rule.versions} needs "
            f"{family(rule.needs).title} {rule.needs_versions}{queued}: {rule.reason}"
        )
    for pair in COEXISTENCE:
        print(f"  {family(pair.first).title} beside {family(pair.second).title}: {pair.how}")
