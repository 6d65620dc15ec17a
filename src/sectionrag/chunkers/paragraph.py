"""``paragraph``: one chunk per blank-line block.

A heading block (a single short line such as ``Refund Policy:``, ``# Title``
or a line that starts a section of the document) is attached to the block it
introduces. A block over the cap is split into sentence packs. With
``pack=True`` consecutive small blocks are packed together up to the size.
"""

from __future__ import annotations

import re
from typing import Any

from sectionrag._sentences import split_sentences
from sectionrag.chunkers._base import BaseChunker
from sectionrag.chunkers._spans import Measure, Span, trim
from sectionrag.chunkers.sentence import pack_ranges
from sectionrag.defaults import DEFAULT_SIZE
from sectionrag.types import Document

__all__ = ["ParagraphChunker", "is_heading_line", "paragraph_blocks"]

_BLANK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_CLOSERS = "\"'\u201d\u2019)]_*"


def paragraph_blocks(text: str, start: int, end: int) -> list[Span]:
    """Blank-line separated blocks of ``text[start:end]``, trimmed, non-empty."""
    out: list[Span] = []
    pos = start
    for m in _BLANK.finditer(text, start, end):
        a, b = trim(text, pos, m.start())
        if b > a:
            out.append((a, b))
        pos = m.end()
    a, b = trim(text, pos, end)
    if b > a:
        out.append((a, b))
    return out


def is_heading_line(text: str, start: int, end: int, section_starts: frozenset[int] = frozenset()) -> bool:
    """Tell whether ``text[start:end]`` is one short line that reads as a heading."""
    line = text[start:end]
    if "\n" in line or not line:
        return False
    if start in section_starts or line.startswith("#"):
        return True
    core = line.rstrip(_CLOSERS)
    if not core or len(line) > 80 or len(line.split()) > 12:
        return False
    first = line.lstrip(_CLOSERS + "(")[:1]
    return core[-1] not in ".!?,;" and (first.isupper() or first.isdigit())


class ParagraphChunker(BaseChunker):
    """One chunk per paragraph (blank-line block), heading blocks kept with their body.

    Args:
        size: Maximum tokens per chunk (default :data:`~sectionrag.defaults.DEFAULT_SIZE`); a
            longer block is split at sentence ends.
        tokenizer: Counts tokens (default :class:`~sectionrag.tokenizers.WordTokenizer`).
        pack: Pack consecutive blocks together up to ``size`` (default ``False``).
    """

    strategy = "paragraph"

    def __init__(self, *, size: int = DEFAULT_SIZE, tokenizer: Any = None, pack: bool = False) -> None:
        super().__init__(size=size, tokenizer=tokenizer)
        if not isinstance(pack, bool):
            raise TypeError(f"pack must be a bool, not {type(pack).__name__}")
        self.pack = pack

    def __repr__(self) -> str:
        return f"ParagraphChunker(size={self.size}, pack={self.pack})"

    def split(self, document: Document, measure: Measure, start: int, end: int, budget: int) -> list[Span]:
        """Blocks of ``text[start:end]`` (headings attached, oversize blocks split)."""
        text = document.text
        heads = frozenset(s.start for s in document.sections)
        units: list[Span] = []
        pending: int | None = None
        blocks = paragraph_blocks(text, start, end)
        for k, (a, b) in enumerate(blocks):
            if pending is not None and a in heads:
                outer = document.section_path_at(pending)
                if not outer or document.section_path_at(a)[: len(outer)] != outer:
                    # headings run into a subsection of their own section, never into another one
                    units.append((pending, blocks[k - 1][1]))
                    pending = None
            if k + 1 < len(blocks) and is_heading_line(text, a, b, heads):
                if pending is None:
                    pending = a
                continue
            units.append((a if pending is None else pending, b))
            pending = None
        # Count each short block whole and each long one by its sentences, in one
        # batch: then every chunk made of them is counted by adding theirs up.
        atoms: list[Span] = []
        groups: list[tuple[int, int, bool]] = []  # (first atom, end atom, split into sentences)
        cuts = document.boundaries()
        for a, b in units:
            first = len(atoms)
            if b - a <= budget:
                atoms.append((a, b))
            else:
                atoms.extend(split_sentences(text, a, b, cuts=cuts).spans)
            groups.append((first, len(atoms), b - a > budget))
        costs = measure.estimate_spans(atoms)
        pieces: list[Span] = []
        piece_costs: list[int] = []
        for first, stop, by_sentence in groups:
            total = sum(costs[first:stop])
            if not by_sentence or total <= budget:
                pieces.append((atoms[first][0], atoms[stop - 1][1]))
                piece_costs.append(total)
                continue
            for i, j in pack_ranges(costs[first:stop], budget):
                pieces.append((atoms[first + i][0], atoms[first + j - 1][1]))
                piece_costs.append(sum(costs[first + i : first + j]))
        if not self.pack:
            return pieces
        return [(pieces[i][0], pieces[j - 1][1]) for i, j in pack_ranges(piece_costs, budget)]
