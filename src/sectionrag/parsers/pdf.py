"""PDF parser: reading-order text with page spans, and sections with real depth.

Text comes from pypdfium2 (fast, permissively licensed), page by page. On
each page, lines are put in reading order (two-column pages column by
column), running headers, footers and page numbers that repeat across pages
are dropped, hyphenated line breaks are rejoined, and table rows are written
as cells separated by ``" | "``.

Sections come from the PDF outline (bookmarks) when the file has one and
``use_outline`` is true; otherwise, and to place outline entries in the text,
headings are detected from the page itself: font size relative to the body
text, weight, numbering (``1.2.3``, ``Item 1A.``, ``PART II``, ``Chapter 3``,
``Appendix A``, roman numerals) and spacing. Levels come from ranking the
heading styles and from the depth of the numbering.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any

from sectionrag.errors import MissingDependencyError, ParseError
from sectionrag.parsers._pdf_furniture import mark_furniture, mark_line_numbers
from sectionrag.parsers._pdf_headings import find_headings
from sectionrag.parsers._pdf_layout import (
    assemble,
    assign_rows,
    body_size,
    clean_text,
    mark_tables,
    merge_labels,
    reading_order,
)
from sectionrag.parsers._pdf_levels import apply_contents, rank_headings, split_title
from sectionrag.parsers._pdf_outline import outline_headings, read_outline
from sectionrag.parsers._pdf_rtl import orient_rtl_numbers
from sectionrag.parsers._pdf_rules import mark_ruled_cells
from sectionrag.parsers._pdf_title import reads_as_title
from sectionrag.parsers._pdf_toc import find_contents
from sectionrag.parsers._pdfium import TEX_PRODUCER, PageFrame, PdfLine, extract_page_lines
from sectionrag.parsers._plumber_tables import add_ruled_tables
from sectionrag.parsers._sections import build_sections
from sectionrag.parsers._source import read_head
from sectionrag.types import Document

__all__ = ["PdfParser"]

logger = logging.getLogger(__name__)


class PdfParser:
    """Parse PDFs into a :class:`~sectionrag.types.Document` with pages and sections.

    Args:
        use_outline: Take sections from the PDF's bookmarks when it has them
            (headings found on the pages still place them in the text).
        remove_headers: Drop running headers, footers and page numbers.
        password: Password for an encrypted PDF.
        tables: Also read ruled tables with pdfplumber, one ``cell | cell`` line per
            row (slower; see :mod:`sectionrag.parsers._plumber_tables`).
    """

    def __init__(
        self,
        *,
        use_outline: bool = True,
        remove_headers: bool = True,
        password: str | None = None,
        tables: bool = False,
    ):
        self.use_outline = use_outline
        self.remove_headers = remove_headers
        self.password = password
        self.tables = tables

    def parse(self, source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Document:
        """Parse a PDF path or its bytes.

        Raises:
            ParseError: the file is missing, not a PDF, corrupt, encrypted,
                has no pages, or has no text layer (a scan: run OCR first).
            MissingDependencyError: pypdfium2 is not installed.
        """
        try:
            import pypdfium2 as pdfium
        except ImportError as e:  # pragma: no cover - pypdfium2 comes with pdfplumber
            raise MissingDependencyError(
                "PDF parsing needs pypdfium2 (installed with pdfplumber): pip install pdfplumber"
            ) from e
        label, opened = self._open(pdfium, source, name)
        pdf = opened
        try:
            page_count = len(pdf)
            if page_count == 0:
                raise ParseError(f"{label}: the PDF has no pages", source=label)
            pages_lines: list[list[PdfLine]] = []
            failed: list[int] = []
            undrawn: set[str] = set()  # fonts whose CJK text this machine has no glyphs for
            frames: list[PageFrame | None] = []  # each page's rotation and size, for the outline's places
            metadata = self._metadata(pdf)
            by_tex = any(TEX_PRODUCER.search(metadata.get(key, "")) for key in ("producer", "creator"))
            for index in range(page_count):
                try:
                    page = pdf[index]
                except Exception as e:  # pdfium raises its own error type for broken pages
                    logger.warning("%s: page %d cannot be read (%s)", label, index + 1, e)
                    failed.append(index + 1)
                    pages_lines.append([])
                    frames.append(None)
                    continue
                try:
                    frames.append(PageFrame.of(page))
                    lines = extract_page_lines(page, index, undrawn=undrawn, drawn_underscores=by_tex)
                    mark_ruled_cells(page, lines)
                    pages_lines.append(lines)
                finally:
                    page.close()
            outline = read_outline(pdf, frames) if self.use_outline else []
        finally:
            pdf.close()
        if len(failed) == page_count:
            raise ParseError(f"{label}: no page of the PDF can be read (corrupt file?)", source=label)
        if not any(pages_lines):
            raise ParseError(
                f"{label}: the PDF has no text layer ({page_count} page(s), probably scanned images); "
                "run OCR first (for example `ocrmypdf in.pdf out.pdf`) and parse the result",
                source=label,
            )
        if failed:
            metadata["unreadable_pages"] = failed
        if undrawn:
            metadata["fonts_without_glyphs"] = sorted(undrawn)
            logger.warning(
                "%s: its CJK text is set in fonts it does not embed (%s) and this machine has no font "
                "with CJK glyphs, so pdfium leaves out characters set alone (a chapter's 第, for one) "
                "and headings may be missed; install one (Debian, Ubuntu: apt install fonts-noto-cjk) "
                "and parse it again",
                label,
                ", ".join(sorted(undrawn)),
            )
        if self.tables:
            add_ruled_tables(source, pages_lines, password=self.password)
        return self._build(pages_lines, outline, label, metadata)

    # ----------------------------------------------------------------- opening

    def _open(self, pdfium: Any, source: str | os.PathLike[str] | bytes, name: str | None) -> tuple[str, Any]:
        if isinstance(source, (bytes, bytearray, memoryview)):
            data: Any = bytes(source)
            label = name or "<bytes>"
            head = data[:1024]
        else:  # a path: a regular file (FIFOs and devices refused unopened), or a ParseError
            head = read_head(source, 1024, name)  # TypeError for anything else
            data = str(Path(source))
            label = name or data
        if not head:
            raise ParseError(f"{label}: file is empty (0 bytes)", source=label)
        if b"%PDF-" not in head:
            raise ParseError(f"{label}: not a PDF (no %PDF- header); the file may be corrupt", source=label)
        try:
            pdf = pdfium.PdfDocument(data, password=self.password)
        except pdfium.PdfiumError as e:
            message = str(e)
            if "password" in message.lower():
                hint = "wrong password" if self.password else "pass password=... to parse it"
                raise ParseError(f"{label}: the PDF is encrypted ({hint})", source=label) from e
            if _has_no_pages(data):
                raise ParseError(f"{label}: the PDF has no pages", source=label) from e
            raise ParseError(f"{label}: corrupt or unreadable PDF ({message})", source=label) from e
        return label, pdf

    @staticmethod
    def _metadata(pdf: Any) -> dict[str, Any]:
        meta: dict[str, Any] = {"format": "pdf", "page_count": len(pdf)}
        try:
            info = pdf.get_metadata_dict(skip_empty=True)
        except Exception:  # pragma: no cover - metadata is optional
            info = {}
        for key in ("Title", "Author", "Subject", "Producer", "Creator"):
            value = info.get(key)
            if isinstance(value, str) and value.strip():
                meta[key.lower()] = value.strip()
        if "title" in meta and not reads_as_title(meta["title"]):
            # a file name or an identifier: the page's own title takes its place (see _build)
            meta["pdf_title"] = meta.pop("title")
        return meta

    # ---------------------------------------------------------------- building

    def _build(
        self,
        pages_lines: list[list[PdfLine]],
        outline: list[tuple[int, str, int, float | None]],
        label: str,
        metadata: dict[str, Any],
    ) -> Document:
        for lines in pages_lines:
            for line in lines:
                line.text = clean_text(line.text)
        orient_rtl_numbers(pages_lines)
        for index, lines in enumerate(pages_lines):
            assign_rows(lines)
            if self.remove_headers:
                mark_line_numbers(lines)
                lines = [ln for ln in lines if ln.role != "furniture"]
            pages_lines[index] = merge_labels(lines)
        if self.remove_headers:
            mark_furniture(pages_lines)
        kept = [[ln for ln in lines if ln.role != "furniture" and ln.text] for lines in pages_lines]
        for lines in kept:
            mark_tables(lines)
        ordered = [reading_order(lines) for lines in kept]
        body = body_size(ordered)
        contents = find_contents(ordered, body)
        candidates = find_headings(ordered, body)
        title = split_title(candidates, ordered, body)
        if contents is not None:
            candidates = apply_contents(candidates, contents, ordered)
        if title and "title" not in metadata:
            metadata["title"] = title
        text, pages, line_offsets = assemble(ordered, {id(c.lines[0]) for c in candidates})
        if outline:
            headings = outline_headings(outline, ordered, candidates, line_offsets, pages)
            metadata["sections_from"] = "outline"
        else:
            headings = rank_headings(candidates, line_offsets, body)
            metadata["sections_from"] = "layout"
        sections = build_sections(headings, len(text), pages)
        return Document.create(text, source=label, sections=sections, pages=pages, metadata=metadata)


def _has_no_pages(data: str | bytes) -> bool:
    """Tell whether a PDF that pdfium refused declares an empty page tree."""
    try:
        raw = data if isinstance(data, bytes) else Path(data).read_bytes()
    except OSError:
        return False
    return bool(re.search(rb"/Count\s+0\b", raw)) and not re.search(rb"/Type\s*/Page\b", raw)


# --------------------------------------------------------------------- layout
