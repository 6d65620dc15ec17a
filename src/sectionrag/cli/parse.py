"""``sectionrag parse FILE``: parse only and show the sections found."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sectionrag.cli._common import add_parser_options, build_parser, emit_json
from sectionrag.types import Document, Section

__all__ = ["document_json", "register", "run"]


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``parse`` command to ``subparsers``."""
    p = subparsers.add_parser(
        "parse",
        parents=[common],
        help="parse a file and show its sections",
        description="Parse FILE (PDF, HTML, Markdown, reStructuredText or text) and print its sections: "
        "an indented outline with pages, or JSON with --json.",
    )
    p.add_argument("file", metavar="FILE", help="the file to parse")
    add_parser_options(p)
    p.add_argument(
        "--no-outline",
        action="store_true",
        help="ignore a PDF's bookmarks and detect headings from the pages alone",
    )
    p.set_defaults(handler=run)


def _section_json(section: Section) -> dict[str, Any]:
    return {
        "title": section.title,
        "level": section.level,
        "path": list(section.path),
        "start": section.start,
        "end": section.end,
        "page_start": section.page_start,
        "page_end": section.page_end,
    }


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def document_json(doc: Document) -> dict[str, Any]:
    """Return the JSON document ``sectionrag parse --json`` prints for ``doc``."""
    return {
        "source": doc.source,
        "doc_id": doc.id,
        "chars": len(doc.text),
        "pages": len(doc.pages),
        "sections": [_section_json(s) for s in doc.sections],
        "metadata": {str(k): _jsonable(v) for k, v in doc.metadata.items()},
    }


def _pages_label(section: Section) -> str:
    if section.page_start is None:
        return ""
    if section.page_end is None or section.page_end == section.page_start:
        return f"p. {section.page_start}"
    return f"pp. {section.page_start}-{section.page_end}"


def run(args: argparse.Namespace) -> int:
    """Parse ``args.file`` and print its outline (or JSON)."""
    options = {"use_outline": False} if args.no_outline else {}
    doc = build_parser(args, **options).parse(args.file)
    if args.json:
        emit_json(document_json(doc))
        return 0
    pages = f", {len(doc.pages)} pages" if doc.pages else ""
    print(f"{doc.source}: {len(doc.text):,} chars{pages}, {len(doc.sections)} sections (id {doc.id})")
    width = max((2 * (s.level - 1) + len(s.title) for s in doc.sections), default=0)
    width = min(width, 90)
    for s in doc.sections:
        label = "  " * (s.level - 1) + s.title
        if len(label) > 90:
            label = label[:89] + "\u2026"
        pages_label = _pages_label(s)
        print(f"{label:<{width}}  {pages_label}".rstrip())
    return 0
