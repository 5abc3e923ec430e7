"""User-written metric patterns: checked so that no log can make them run for ever.

Python's ``re`` backtracks: a repetition nested in another (``(\\d+)+``) or repeating an
alternation (``(a|ab)*``) takes exponential time on a line that almost matches. Such
patterns are refused; the others run line by line on lines of bounded length
(:data:`MAX_LINE_CHARS`), so their cost is bounded by the log's size.
"""

from __future__ import annotations

import re
import re._parser as sre_parse  # the parser ``re`` itself uses: the exact structure it runs
from typing import Any

MAX_PATTERN_CHARS = 300
MAX_LINE_CHARS = 4096
"""Longer lines are cut: metric lines are short, and the cut bounds each match's cost."""

_REPEATS = {sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT}


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot be a metric pattern, or ``None`` when it can."""
    if len(pattern) > MAX_PATTERN_CHARS:
        return f"at most {MAX_PATTERN_CHARS} characters"
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        return f"a Python regular expression ({error})"
    if compiled.groups != 1:
        return (
            "a regular expression with exactly one capturing group, the number "
            f"(found {compiled.groups}; use (?:...) for other groups)"
        )
    nested = _nested_repetition(list(sre_parse.parse(pattern)), inside_repeat=False)
    if nested:
        return (
            f"a pattern without {nested} (exponential backtracking on long lines); "
            r"e.g. `total images/sec: ([0-9.]+)`"
        )
    return None


def _nested_repetition(items: list[tuple[Any, Any]], inside_repeat: bool) -> str | None:
    """The risky construct in a parsed pattern, if any."""
    for op, argument in items:
        if op in _REPEATS:
            _, maximum, sub = argument
            repeats = maximum > 1
            if repeats and inside_repeat:
                return "a repetition inside a repetition"
            found = _nested_repetition(list(sub), inside_repeat or repeats)
            if found:
                return found
        elif op is sre_parse.BRANCH:
            if inside_repeat:
                return "an alternation inside a repetition"
            for branch in argument[1]:
                found = _nested_repetition(list(branch), inside_repeat)
                if found:
                    return found
        elif op is sre_parse.SUBPATTERN:
            found = _nested_repetition(list(argument[3]), inside_repeat)
            if found:
                return found
        elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            found = _nested_repetition(list(argument[1]), inside_repeat)
            if found:
                return found
        elif op is sre_parse.GROUPREF or op is sre_parse.GROUPREF_EXISTS:
            return "a back-reference"
    return None
