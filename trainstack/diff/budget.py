"""Keep a markdown document under a character limit (GitHub refuses longer comments)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

GITHUB_COMMENT_LIMIT = 65_536

Shrink = Callable[[str, int], str | None]


def fit(
    required: Sequence[str],
    optional: Sequence[str],
    limit: int,
    note: Callable[[int], str],
    shrink: Shrink | None = None,
) -> str:
    """``required`` blocks, then as many ``optional`` ones as fit, then ``note(omitted)``.

    The first block that does not fit may be shortened by ``shrink(block, room)`` (which
    returns ``None`` when nothing useful fits in ``room`` characters); the rest are
    dropped and counted in the note, which always fits.
    """
    text = "".join(required)
    for index, block in enumerate(optional):
        if len(text) + len(block) + len(note(len(optional) - index - 1)) <= limit:
            text += block
            continue
        omitted = len(optional) - index
        room = limit - len(text) - len(note(omitted - 1))
        shortened = shrink(block, room) if shrink else None
        if shortened is not None and len(shortened) <= room:
            text += shortened
            omitted -= 1
        text += note(omitted)
        break
    if len(text) > limit:
        # Even the required blocks are too long: cut at a line boundary, say so.
        ending = note(len(optional))
        text = text[: text.rfind("\n", 0, limit - len(ending)) + 1] + ending
    return text
