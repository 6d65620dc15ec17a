"""The tenth retrieval round's lever: the reporting period on a filing's cover in its document label.

The default label of a section chunk is the file name plus the issuer printed on
the cover (``2023 Q3 AAPL (Apple Inc.)``, see ``sectionrag.chunkers._context``).
This lever adds the period the cover names (``For the quarterly period ended
July 1, 2023``), so that a question naming a date (``the June 2023 quarter``,
``quarter ended September 30 2023``) can tell one issuer's filings apart:

- ``header``: ``2023 Q3 AAPL (Apple Inc., quarterly period ended July 1, 2023)``
  as the label, in the embedded contextual header and in full-text search;
- ``fulltext``: the same label in full-text search only (``Chunk.title``), the
  embedded header as before.

The library is patched in this process only, then one of the two benchmarks
runs with the arguments that follow ``--``:

    python benchmarks/period_label_lever.py header retrieval -- --only "=sectionrag default" --no-write
    python benchmarks/period_label_lever.py fulltext sec-pages -- --only "=sectionrag default" --modes default

Measured and not kept (docs/search.md, tenth round).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lever import split_at_dashes

from sectionrag.chunkers import _context, section

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_PERIOD = re.compile(
    r"(?i)\bfor\s+the\s+(?P<what>(?:fiscal\s+)?(?:quarterly\s+period|quarter|year|transition\s+period|"
    r"(?:three|six|nine|twelve)\s+months|period))"
    r"\s+ended\s+(?P<date>" + _MONTH + r"\s+\d{1,2},?\s+(?:19|20)\d\d)\b"
)
_ADDED = re.compile(r",? ?[a-z][a-z -]* ended [A-Z][a-z]+ \d+, \d{4}")


def period(text: str, start: int = 0) -> str:
    """Return ``quarterly period ended July 1, 2023`` for the first such phrase in the opening, or ``""``."""
    m = _PERIOD.search(text, start, start + _context.OPENING)
    if not m:
        return ""
    what = " ".join(m["what"].lower().split())
    date = " ".join(m["date"].split())
    return f"{what} ended {date[0].upper()}{date[1:].lower()}"


def label_with_period(source: str, text: str, start: int = 0) -> str:
    """The default document label with the cover's period added inside its brackets (or in new ones)."""
    label = _context.document_label(source, text, start)
    when = period(text, start)
    if not when:
        return label
    if label.endswith(")"):
        return f"{label[:-1]}, {when})"
    return f"{label} ({when})" if label else when


def patch(where: str) -> None:
    """Put the period into the label, and with ``fulltext`` take it out of the embedded header again."""
    section.document_label = label_with_period  # type: ignore[assignment]
    if where == "fulltext":
        header_for = section.SectionChunker.header_for

        def without_period(self: section.SectionChunker, path: tuple[str, ...], title: str = "") -> str:
            return header_for(self, path, _ADDED.sub("", title).replace(" ()", ""))

        section.SectionChunker.header_for = without_period  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    args, rest = split_at_dashes(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("where", choices=["header", "fulltext"])
    parser.add_argument("bench", choices=["retrieval", "sec-pages"])
    ns = parser.parse_args(args)
    patch(ns.where)
    if ns.bench == "retrieval":
        import bench_retrieval

        return bench_retrieval.main(rest)
    import bench_sec_pages

    return bench_sec_pages.main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
