"""A resource read back by its URN (``pulumi:pulumi:getResource``) under the plan's engine."""

from __future__ import annotations

from pathlib import Path

from trainstack.plan.engine import run_program

PROGRAM = """
import pulumi

class Thing(pulumi.CustomResource):
    def __init__(self, name, props, opts=None):
        super().__init__("test:index:Thing", name, props, opts)

made = Thing("made", {"size": 3, "labels": {"team": "vision"}, "zones": ["a", "b"]})


def read_back(urn):
    # Once `made` is registered: a resource of the same program, read back by its URN.
    props = {"size": None, "labels": None, "zones": None}
    again = Thing("again", props, pulumi.ResourceOptions(urn=urn))
    return pulumi.Output.all(again.size, again.labels, again.zones)


pulumi.export("state", made.urn.apply(read_back))
"""


def test_a_resource_read_back_by_its_urn_has_the_state_it_was_made_with(tmp_path: Path) -> None:
    program = tmp_path / "__main__.py"
    program.write_text(PROGRAM)
    run = run_program(program, "project", "test", {}, set())
    assert run.outputs == {"state": [3, {"team": "vision"}, ["a", "b"]]}
