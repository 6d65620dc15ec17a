"""Parsers: turn files into :class:`~sectionrag.types.Document` objects.

:func:`parse_file` picks the parser from the file's extension. The content
decides only where the extension is missing or cannot be right: a ``.pdf``
without a PDF header is parsed as the text, Markdown or HTML it holds, a file
without extension by what it looks like; a text extension gives way only to
a real PDF (``%PDF-`` at byte 0 followed by PDF objects), an HTML document
(``<!DOCTYPE html``/``<html`` at the start) or binary content (refused). A
few bytes of text (``%PDF-1.7`` in a Markdown file) never change the kind.
:func:`get_parser` builds one parser by kind name (``text``, ``markdown``,
``html``, ``pdf``) or extension.
"""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from typing import Any

from sectionrag.errors import ConfigError, UnsupportedFileTypeError
from sectionrag.parsers._source import check_parse_options, has_pdf_header, read_head, sniff_kind
from sectionrag.protocols import Parser
from sectionrag.types import Document

__all__ = ["EXTENSIONS", "PARSERS", "detect_kind", "get_parser", "parse_file"]

#: parser kind -> "module:Class" (imported on first use)
PARSERS: dict[str, str] = {
    "text": "sectionrag.parsers.text:TextParser",
    "markdown": "sectionrag.parsers.markdown:MarkdownParser",
    "html": "sectionrag.parsers.html:HtmlParser",
    "pdf": "sectionrag.parsers.pdf:PdfParser",
}

#: file extension (lower case, with dot) -> parser kind
EXTENSIONS: dict[str, str] = {
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".mkd": "markdown",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".pdf": "pdf",
}

#: constructor options each parser kind accepts
_OPTIONS: dict[str, frozenset[str]] = {
    "text": frozenset(),
    "markdown": frozenset(),
    "html": frozenset({"drop_page_chrome"}),
    "pdf": frozenset({"use_outline", "remove_headers", "password"}),
}

_MD_HEADING = re.compile(r"^ {0,3}#{1,6} \S", re.MULTILINE)


def _supported() -> str:
    return ", ".join(sorted(EXTENSIONS))


def detect_kind(path: str | os.PathLike[str], head: bytes | None = None) -> str:
    """Return the parser kind for a file: its extension, unless the content says it cannot be.

    See the module docs for when the content decides.

    Args:
        path: The file (its extension is the first hint).
        head: The file's first bytes; read from ``path`` when ``None``.

    Raises:
        UnsupportedFileTypeError: no parser handles the file's content or extension.
        ParseError: the file is missing, not a regular file, or cannot be read.
    """
    p = Path(path)
    name = str(p)
    if head is None:
        head = read_head(p)
    by_ext = EXTENSIONS.get(p.suffix.lower())
    sniffed = sniff_kind(head)
    if sniffed == "pdf" or (by_ext == "pdf" and has_pdf_header(head)):
        return "pdf"
    if by_ext is None and p.suffix == "" and has_pdf_header(head):
        return "pdf"
    if sniffed == "html":
        return "html"
    if sniffed == "binary":
        if by_ext == "pdf":
            return "pdf"  # the PDF parser says what is wrong with it
        raise UnsupportedFileTypeError(
            f"{name}: binary content that is not a PDF (an archive, image or office document?); "
            f"supported types: {_supported()}",
            source=name,
        )
    if by_ext in ("text", "markdown", "html"):
        return by_ext
    if by_ext == "pdf" or (by_ext is None and p.suffix == ""):
        if not head.strip():
            return "text"  # empty: the text parser reports it
        sample = head.decode("utf-8", errors="replace")
        return "markdown" if _MD_HEADING.search(sample) else "text"
    raise UnsupportedFileTypeError(
        f"{name}: unsupported file type {p.suffix!r}; supported types: {_supported()}", source=name
    )


def get_parser(kind: str, **options: Any) -> Parser:
    """Build a parser by kind (``text``, ``markdown``, ``html``, ``pdf``) or extension (``.md``).

    Raises:
        UnsupportedFileTypeError: unknown kind or extension.
        ConfigError: an option the parser does not accept.
    """
    if not isinstance(kind, str):
        raise TypeError(f"get_parser() expects a kind name (str), not {type(kind).__name__}")
    key = kind.lower()
    if key.startswith("."):
        if key not in EXTENSIONS:
            raise UnsupportedFileTypeError(f"no parser for {kind!r}; supported types: {_supported()}")
        key = EXTENSIONS[key]
    if key not in PARSERS:
        raise UnsupportedFileTypeError(
            f"no parser named {kind!r}; choose one of: {', '.join(sorted(PARSERS))}"
        )
    unknown = set(options) - _OPTIONS[key]
    if unknown:
        accepted = ", ".join(sorted(_OPTIONS[key])) or "none"
        raise ConfigError(
            f"unknown option(s) {', '.join(sorted(unknown))} for the {key} parser; accepted: {accepted}"
        )
    module_name, _, attr = PARSERS[key].partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    parser: Parser = cls(**options)
    return parser


def parse_file(path: str | os.PathLike[str], *, name: str | None = None, **options: Any) -> Document:
    """Parse ``path`` with the parser its type calls for.

    Options that only some parsers understand (``use_outline`` for PDFs) are
    passed to those and ignored by the others.

    Raises:
        UnsupportedFileTypeError: no parser handles the file.
        ParseError: the file is empty, corrupt, encrypted or unreadable.
        ConfigError: an option no parser accepts.
    """
    check_parse_options(options)
    known = frozenset().union(*_OPTIONS.values())
    unknown = set(options) - known
    if unknown:
        raise ConfigError(
            f"unknown parse option(s) {', '.join(sorted(unknown))}; accepted: {', '.join(sorted(known))}"
        )
    kind = detect_kind(path)
    parser = get_parser(kind, **{k: v for k, v in options.items() if k in _OPTIONS[kind]})
    return parser.parse(Path(path), name=name)
