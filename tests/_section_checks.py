"""Invariants every parser's sections must satisfy (shared by the parser tests)."""

from __future__ import annotations

import itertools

from sectionrag.types import Document


def check_sections(doc: Document) -> None:
    n = len(doc.text)
    secs = list(doc.sections)
    for s in secs:
        assert 0 <= s.start < s.end <= n, s
        assert s.level == len(s.path) >= 1, s
        assert s.path[-1] == s.title
        assert s.title == " ".join(s.title.split()) and s.title
    # spans are nested or disjoint; a parent (path prefix) contains its children
    for a in secs:
        for b in secs:
            if a is b:
                continue
            overlap = a.start < b.end and b.start < a.end
            if overlap:
                inner, outer = (a, b) if a.level > b.level else (b, a)
                assert outer.start <= inner.start and inner.end <= outer.end, (a, b)
            if len(b.path) == len(a.path) + 1 and b.path[:-1] == a.path and a.start <= b.start < a.end:
                assert b.end <= a.end
    # a section ends where the next heading of the same or a higher level starts
    for i, s in enumerate(secs):
        nxt = next((t for t in secs[i + 1 :] if t.level <= s.level), None)
        assert s.end == (nxt.start if nxt is not None else n), s
    if doc.pages:
        pages = list(doc.pages)
        assert pages[0].start == 0 and pages[-1].end == n
        for p, q in itertools.pairwise(pages):
            assert p.end == q.start and q.number == p.number + 1
        for s in secs:
            assert s.page_start is not None and s.page_end is not None
            assert 1 <= s.page_start <= s.page_end <= pages[-1].number
