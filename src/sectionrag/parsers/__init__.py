"""Parsers: turn files into :class:`~sectionrag.types.Document` objects.

:class:`AutoParser` picks the parser for each file from its extension. The
content decides only where the extension is missing or cannot be right
(:func:`detect_kind`): a ``.pdf`` without a PDF header is parsed as the text,
Markdown or HTML it holds, a file without extension by what it looks like; a
text extension gives way only to a real PDF (``%PDF-`` at byte 0 followed by
PDF objects), an HTML document (``<!DOCTYPE html``/``<html`` at the start) or
binary content (refused). A few bytes of text (``%PDF-1.7`` in a Markdown
file) never change the kind. :func:`get_parser` builds one parser by name
(``text``, ``markdown``, ``rst``, ``html``, ``pdf``, or a registered plug-in) or
extension, and :func:`parse_file` parses one file with an AutoParser. Parser
names and their extensions are kept in :mod:`sectionrag.registry`.
"""

from __future__ import annotations

import inspect
import os
import re
import threading
from pathlib import Path
from typing import Any

from sectionrag import registry
from sectionrag.errors import ConfigError, UnsupportedFileTypeError
from sectionrag.parsers._source import check_parse_options, has_pdf_header, read_head, sniff_kind
from sectionrag.protocols import Parser
from sectionrag.types import Document

__all__ = ["AutoParser", "accepted_options", "detect_kind", "get_parser", "parse_file"]

#: the parser kinds that content sniffing recognises; a file whose extension belongs to
#: another registered parser (a plug-in) goes to that parser whatever its bytes
_SNIFFED = frozenset({"text", "markdown", "rst", "html", "pdf"})

_MD_HEADING = re.compile(r"^ {0,3}#{1,6} \S", re.MULTILINE)


def _supported() -> str:
    return ", ".join(sorted(registry.parser_extensions()))


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
    by_ext = registry.parser_for_extension(p.suffix) if p.suffix else None
    if by_ext is not None and by_ext not in _SNIFFED:
        return by_ext
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
    if by_ext in ("text", "markdown", "rst", "html"):
        return by_ext
    if by_ext == "pdf" or (by_ext is None and p.suffix == ""):
        if not head.strip():
            return "text"  # empty: the text parser reports it
        sample = head.decode("utf-8", errors="replace")
        return "markdown" if _MD_HEADING.search(sample) else "text"
    raise UnsupportedFileTypeError(
        f"{name}: unsupported file type {p.suffix!r}; supported types: {_supported()}", source=name
    )


def accepted_options(parser_class: Any) -> frozenset[str] | None:
    """Return the keyword options a parser's constructor accepts (``None``: any, it takes ``**kwargs``)."""
    try:
        params = list(inspect.signature(parser_class).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return frozenset()
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))


def _parser_entry(kind: str) -> registry.Entry:
    if not isinstance(kind, str):
        raise TypeError(f"get_parser() expects a parser name (str), not {type(kind).__name__}")
    key = kind.lower()
    if key.startswith("."):
        by_ext = registry.parser_for_extension(key)
        if by_ext is None:
            raise UnsupportedFileTypeError(f"no parser for {kind!r}; supported types: {_supported()}")
        key = by_ext
    found = registry.find("parser", key)
    if found is None:
        raise UnsupportedFileTypeError(
            f"no parser named {kind!r}; choose one of: {', '.join(registry.names('parser'))}"
        )
    return found


def get_parser(kind: str, **options: Any) -> Parser:
    """Build a parser by name (``text``, ``markdown``, ``html``, ``pdf``, a plug-in) or extension (``.md``).

    Raises:
        UnsupportedFileTypeError: unknown name or extension.
        ConfigError: an option the parser does not accept.
    """
    found = _parser_entry(kind)
    cls = found.load()
    accepted = accepted_options(cls)
    unknown = set() if accepted is None else set(options) - accepted
    if unknown:
        listed = ", ".join(sorted(accepted or ())) or "none"
        raise ConfigError(
            f"unknown option(s) {', '.join(sorted(unknown))} for the {found.name} parser; accepted: {listed}"
        )
    parser: Parser = cls(**{**found.params, **options})
    return parser


class AutoParser:
    """A :class:`~sectionrag.protocols.Parser` that picks the parser each file calls for.

    The file's extension is the first hint and its content decides (see
    :func:`detect_kind`); one parser per kind is built on first use and
    kept. Options that only some parsers understand (``use_outline`` for
    PDFs) are passed to those and not to the others.

    Args:
        **options: Parser options, e.g. ``use_outline``, ``password``, ``tables``
            (PDF) or ``drop_page_chrome`` (HTML).

    Raises:
        ConfigError: an option that no registered parser accepts.
    """

    def __init__(self, **options: Any) -> None:
        if options:
            known: set[str] = set()
            for name in registry.names("parser"):
                accepted = accepted_options(registry.lookup("parser", name))
                if accepted is None:
                    known.update(options)
                    break
                known |= accepted
            unknown = set(options) - known
            if unknown:
                raise ConfigError(
                    f"unknown parse option(s) {', '.join(sorted(unknown))}; "
                    f"accepted: {', '.join(sorted(known))}"
                )
        self.options: dict[str, Any] = dict(options)
        self._parsers: dict[str, Parser] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()) if k != "password")
        return f"AutoParser({options})"

    def __getstate__(self) -> dict[str, Any]:
        # picklable for worker processes: the parsers are built again there, on first use
        return {"options": self.options}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.options = dict(state["options"])
        self._parsers = {}
        self._lock = threading.Lock()

    def config(self) -> dict[str, Any]:
        """Return the options given (what decides the documents), for ingestion's records."""
        return {"options": dict(self.options)}

    def parser_for(self, kind: str) -> Parser:
        """Return the parser of ``kind`` (built on first use with the options it accepts)."""
        with self._lock:
            parser = self._parsers.get(kind)
            if parser is None:
                accepted = accepted_options(_parser_entry(kind).load())
                options = {k: v for k, v in self.options.items() if accepted is None or k in accepted}
                parser = self._parsers[kind] = get_parser(kind, **options)
        return parser

    def parse(self, source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Document:
        """Parse a path, or bytes (``name`` then gives the extension), with the parser its type calls for.

        Raises:
            UnsupportedFileTypeError: no parser handles the file.
            ParseError: the file is missing, empty, corrupt, encrypted or unreadable.
        """
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            return self.parser_for(detect_kind(name or "<bytes>", head=data[:4096])).parse(data, name=name)
        path = Path(source)
        return self.parser_for(detect_kind(path)).parse(path, name=name)


def parse_file(path: str | os.PathLike[str], *, name: str | None = None, **options: Any) -> Document:
    """Parse ``path`` with the parser its type calls for (an :class:`AutoParser` with ``options``).

    Raises:
        UnsupportedFileTypeError: no parser handles the file.
        ParseError: the file is empty, corrupt, encrypted or unreadable.
        ConfigError: an option no parser accepts.
    """
    check_parse_options(options)
    return AutoParser(**options).parse(Path(path), name=name)
