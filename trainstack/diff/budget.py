"""Keep a markdown document under a character limit (GitHub refuses longer comments)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Block:
    """A piece of a document: where it stands is its position in the list it is given in;
    when it is kept is its ``rank``."""

    text: str
    rank: int = 0
    """0: always kept; then the budget is spent rank by rank (1 first), in document order."""
    counts: str | None = None
    """What the truncation note counts when the block is left out (``"object"``...)."""
    shrinkable: bool = False
    """Whether :func:`fit_ranked`'s ``shrink`` may shorten it instead of leaving it out."""


def fit_ranked(
    blocks: Sequence[Block],
    limit: int,
    note: Callable[[Counter[str]], str],
    shrink: Shrink | None = None,
) -> str:
    """The blocks in document order, at most ``limit`` characters with ``note(omitted)``.

    Rank 0 is always kept; the others are added rank by rank, in document order within a
    rank, while they fit; the first that does not fit may be shortened by ``shrink``, and
    it and every block after it (in that order) are left out and counted by ``counts``.
    So a report spends its budget on what matters most wherever it is printed (changes
    before what did not change), and what is cut is always the least important tail.
    """
    kept = {index: block.text for index, block in enumerate(blocks) if block.rank == 0}
    used = sum(len(text) for text in kept.values())
    omitted = Counter(block.counts for block in blocks if block.rank and block.counts)
    order = sorted((i for i, b in enumerate(blocks) if b.rank), key=lambda i: (blocks[i].rank, i))
    for index in order:
        block = blocks[index]
        after = omitted - Counter([block.counts] if block.counts else [])
        room = limit - used - len(note(after))
        if len(block.text) <= room:
            kept[index], used, omitted = block.text, used + len(block.text), after
            continue
        shortened = shrink(block.text, room) if shrink and block.shrinkable else None
        if shortened is not None and len(shortened) <= room:
            kept[index], omitted = shortened, after
        break
    document = "".join(kept[index] for index in sorted(kept))
    ending = note(omitted)
    if len(document) + len(ending) > limit:
        # Even the blocks always kept are too long: cut at a line boundary, say so.
        document = document[: document.rfind("\n", 0, limit - len(ending)) + 1]
    return document + ending
