"""HTML parser: ``h1``-``h6`` sections over the visible text, tables as rows.

A page without ``h1``-``h6`` (a filing on EDGAR) takes its headings from lines
set apart by bold or larger type (:func:`styled_headings`).

Uses the standard library's :class:`html.parser.HTMLParser`: scripts, styles,
templates and navigation (``nav``, ``header``/``footer`` of the page, elements
with ``hidden``/``aria-hidden``) are dropped, entities are decoded, block
elements become line breaks and table rows become lines of cells separated by
``" | "``. ``Document.text`` is that extracted text.
"""

from __future__ import annotations

import bisect
import os
import re
from html.parser import HTMLParser as _StdHTMLParser
from typing import Any, NamedTuple

from sectionrag.errors import ParseError
from sectionrag.parsers._encodings import decode_label
from sectionrag.parsers._sections import Heading, build_sections, clip_title, nest_levels, normalize_title
from sectionrag.parsers._source import decode_with_errors, read_source, require_text
from sectionrag.parsers.headings import classify, is_all_caps, looks_like_sentence, reads_as_labelled_title
from sectionrag.types import Document

__all__ = ["HtmlParser", "Run", "styled_headings"]

_SKIP = frozenset({"script", "style", "template", "noscript", "nav", "svg", "math", "iframe", "object"})
_VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
_BLOCK = frozenset(
    {
        "p", "div", "section", "article", "main", "aside", "blockquote", "pre", "ul", "ol", "li", "dl", "dt",
        "dd", "figure", "figcaption", "table", "thead", "tbody", "tfoot", "tr", "form", "fieldset", "address",
        "details", "summary", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "br", "caption", "body", "html",
        "header", "footer",
    }
)  # fmt: skip
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-]+)""", re.IGNORECASE)
_WS = re.compile(r"[ \t\r\n\f\u00a0\u2000-\u200a\u202f\u3000]+")
_MAX_RAW_TITLE = 1000  # characters of a heading's text made into its title


class Run(NamedTuple):
    """A stretch of the extracted text with its type: bold or not, font size in points if set."""

    start: int
    end: int
    bold: bool
    size: float | None


_FONT_WEIGHT = re.compile(r"font-weight\s*:\s*(bold(?:er)?|[6-9]00)\b", re.IGNORECASE)
_FONT_SIZE = re.compile(r"font-size\s*:\s*([\d.]+)\s*(pt|px)\b", re.IGNORECASE)


def _inline_style(tag: str, style: str) -> tuple[bool, float | None]:
    """Return whether an element sets its text bold, and the font size it sets in points."""
    bold = tag in ("b", "strong") or _FONT_WEIGHT.search(style) is not None
    m = _FONT_SIZE.search(style)
    size = None
    if m is not None:
        try:
            size = float(m.group(1)) * (0.75 if m.group(2).lower() == "px" else 1.0)
        except ValueError:
            size = None
    return bold, size


class _Extractor(_StdHTMLParser):
    """Collects visible text with offsets recorded as it is written."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.length = 0
        self.skip_depth = 0
        self.skip_stack: list[str] = []
        self.skip_open: dict[str, int] = {}  # tag -> how often it is on skip_stack
        self.pre_depth = 0
        self.pending_break = 0  # 0 none, 1 newline, 2 blank line
        self.heading: tuple[int, int, list[str]] | None = None  # (level, start, text pieces)
        self.headings: list[tuple[int, int, str]] = []
        self.title: list[str] = []
        self.in_title = False
        self.cells: list[list[str]] | None = None  # current table row cells
        self.table_depth = 0
        self.body_depth = 0
        # inline style: the open elements' (tag, bold, font size in points), how many of them set
        # bold, their sizes, how often each tag is open; runs of text written
        self.styles: list[tuple[str, bool, float | None]] = []
        self.bold_depth = 0
        self.sizes: list[float] = []
        self.open_tags: dict[str, int] = {}
        self.runs: list[Run] = []
        self.row_chars = [0, 0]  # characters of the current table row: all, bold
        self.row_style: tuple[bool, float | None] | None = None  # (bold, size) of a row being written

    # -- writing
    def _write(self, text: str) -> None:
        if not text:
            return
        if self.cells is not None and self.table_depth:
            if self.cells:
                self.cells[-1].append(text)
            else:
                self.cells.append([text])
            if self.heading is not None:
                self.heading[2].append(text)
            chars = len(text) - text.count(" ")
            self.row_chars[0] += chars
            self.row_chars[1] += chars if self._bold() else 0
            return
        if self.length:
            if self.pending_break == 2:
                self._emit("\n\n")
            elif self.pending_break == 1:
                self._emit("\n")
        self.pending_break = 0
        if self.heading is not None and self.heading[1] < 0:
            self.heading = (self.heading[0], self.length, self.heading[2])
        bold, size = self.row_style or (self._bold(), self._size())
        self.runs.append(Run(self.length, self.length + len(text), bold, size))
        self._emit(text)
        if self.heading is not None:
            self.heading[2].append(text)

    def _bold(self) -> bool:
        return self.bold_depth > 0

    def _size(self) -> float | None:
        return self.sizes[-1] if self.sizes else None

    def _open(self, tag: str, style: str) -> None:
        bold, size = _inline_style(tag, style)
        self.styles.append((tag, bold, size))
        self.bold_depth += bold
        if size is not None:
            self.sizes.append(size)
        self.open_tags[tag] = self.open_tags.get(tag, 0) + 1

    def _close(self, tag: str) -> None:
        """Close ``tag`` and every element opened inside it and left open."""
        if not self.open_tags.get(tag):
            return
        while self.styles:
            popped, bold, size = self.styles.pop()
            self.bold_depth -= bold
            if size is not None:
                self.sizes.pop()
            self.open_tags[popped] -= 1
            if popped == tag:
                return

    def _emit(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)

    def _break(self, kind: int) -> None:
        self.pending_break = max(self.pending_break, kind)

    def _flush_row(self) -> None:
        if self.cells is None:
            return
        cells = [" ".join("".join(c).split()) for c in self.cells]
        self.cells = None
        chars, bold = self.row_chars
        self.row_chars = [0, 0]
        if any(cells):
            self._break(1)
            depth, self.table_depth = self.table_depth, 0
            self.row_style = (chars > 0 and bold == chars, None)
            self._write(" | ".join(cells))
            self.row_style = None
            self.table_depth = depth
            self._break(1)

    # -- parser callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        hidden = "hidden" in attr or attr.get("aria-hidden") == "true" or attr.get("role") == "navigation"
        if self.skip_depth or tag in _SKIP or hidden:
            if tag not in _VOID:
                self.skip_depth += 1
                self.skip_stack.append(tag)
                self.skip_open[tag] = self.skip_open.get(tag, 0) + 1
            return
        if tag == "title":
            self.in_title = True
            return
        if tag not in _VOID:
            self._open(tag, attr.get("style") or "")
        if tag == "table":
            self._flush_row()
            self.table_depth += 1
            self._break(2)
        elif tag == "tr":
            self._flush_row()
            self.cells = []
        elif tag in ("td", "th") and self.cells is not None:
            self.cells.append([])
        elif tag in _HEADINGS:
            self._break(2)
            self.heading = (_HEADINGS[tag], -1, [])
        elif tag == "pre":
            self.pre_depth += 1
            self._break(2)
        elif tag == "br":
            if self.cells is not None and self.table_depth:
                self._write(" ")
            else:
                self._break(1)
        elif tag in ("p", "blockquote", "ul", "ol", "dl", "figure", "hr", "section", "article"):
            self._break(2)
        elif tag in _BLOCK:
            self._break(1)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and not self.skip_depth:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.skip_depth:
            if self.skip_open.get(tag):
                while self.skip_stack:
                    self.skip_depth -= 1
                    popped = self.skip_stack.pop()
                    self.skip_open[popped] -= 1
                    if popped == tag:
                        break
            return
        self._close(tag)
        if tag == "title":
            self.in_title = False
        elif tag in _HEADINGS and self.heading is not None:
            level, start, pieces = self.heading
            self.heading = None
            title = clip_title(normalize_title("".join(pieces)[:_MAX_RAW_TITLE]))
            if title and start >= 0:
                self.headings.append((start, level, title))
            self._break(2)
        elif tag == "tr":
            self._flush_row()
        elif tag == "table":
            self._flush_row()
            self.table_depth = max(self.table_depth - 1, 0)
            self._break(2)
        elif tag == "pre":
            self.pre_depth = max(self.pre_depth - 1, 0)
            self._break(2)
        elif tag in ("p", "blockquote", "ul", "ol", "dl", "figure", "section", "article"):
            self._break(2)
        elif tag in _BLOCK:
            self._break(1)

    def parse_html_declaration(self, i: int) -> int:
        """Treat a marked section with an unknown keyword (``<![foo[``) as a bogus comment, as browsers do."""
        rawdata = self.rawdata
        if rawdata.startswith("<![", i) and not rawdata.startswith("<!--", i):
            m = _MARKED_KEYWORD.match(rawdata, i + 3)
            if m is None or m.group(1).lower() not in _MARKED_KEYWORDS:
                return self.parse_bogus_comment(i)
        result: int = super().parse_html_declaration(i)
        return result

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.in_title:
            self.title.append(data)
            return
        if self.pre_depth:
            text = data.replace("\r\n", "\n").replace("\r", "\n")
        else:
            text = _WS.sub(" ", data)
            if not self.length or self.pending_break or (self.parts and self.parts[-1].endswith((" ", "\n"))):
                text = text.lstrip(" ")
        self._write(text)


def _sniff_charset(data: bytes) -> str | None:
    m = _META_CHARSET.search(data[:4096])
    return m.group(1).decode("ascii").lower() if m else None


class HtmlParser:
    """Parse HTML into text with ``h1``-``h6`` sections (or, without any, sections by type).

    Args:
        drop_page_chrome: Also drop ``<header>`` and ``<footer>`` elements that
            are direct page chrome (outside ``<main>``/``<article>``).
    """

    def __init__(self, *, drop_page_chrome: bool = True) -> None:
        if not isinstance(drop_page_chrome, bool):
            raise TypeError(f"drop_page_chrome must be a bool, not {type(drop_page_chrome).__name__}")
        self.drop_page_chrome = drop_page_chrome

    def parse(self, source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Document:
        """Parse a path or bytes into a :class:`Document`.

        Raises:
            TypeError: ``source`` is neither a path nor bytes, or ``name`` is not a string.
            ParseError: the file is missing, not a regular file, binary, empty, or has
                no visible text.
        """
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a string, not {type(name).__name__}")
        raw = read_source(source, name)
        charset = _sniff_charset(raw.data)
        labelled = decode_label(raw.data, charset) if charset and charset not in ("utf-8", "utf8") else None
        errors = 0
        if labelled is not None:
            text, encoding = labelled
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        else:
            text, encoding, errors = decode_with_errors(raw.data, raw.name)
        require_text(text, raw.name)
        metadata: dict[str, Any] = {"format": "html", "encoding": encoding}
        if errors:
            metadata["decode_errors"] = errors
        return self.parse_text(text, source=raw.name, metadata=metadata)

    def parse_text(
        self, html: str, *, source: str = "<memory>", metadata: dict[str, Any] | None = None
    ) -> Document:
        """Build a :class:`Document` from an HTML string."""
        if self.drop_page_chrome:
            html = _drop_chrome(html)
        html = _defuse(html)
        extractor = _Extractor()
        try:
            extractor.feed(html)
            extractor.close()
        except Exception as e:  # pragma: no cover - html.parser is lenient
            raise ParseError(f"{source}: cannot parse HTML ({e})", source=source) from e
        extractor._flush_row()
        text = "".join(extractor.parts)
        if not text.strip():
            raise ParseError(f"{source}: the HTML has no visible text", source=source)
        meta: dict[str, Any] = dict(metadata or {"format": "html"})
        title = clip_title(normalize_title("".join(extractor.title)[:_MAX_RAW_TITLE]))
        headings = [
            Heading(start, level, title_) for start, level, title_ in extractor.headings if start < len(text)
        ]
        if not headings:  # no h1-h6: lines set apart by their type (a filing's bold "Item 2.")
            headings = styled_headings(text, extractor.runs)
        if title:
            meta["title"] = title
        elif headings:
            first_h1 = next((h.title for h in headings if h.rank == 1), None)
            if first_h1:
                meta["title"] = first_h1
        sections = build_sections(headings, len(text))
        return Document.create(text, source=source, sections=sections, metadata=meta)


_MAX_STYLED_WORDS = 20  # a longer bold line is a bold paragraph
# a cell of figures or a currency sign alone (dashes: U+2014, U+2013, "-")
_FIGURE_CHARS = "\\s$\u20ac\u00a3()\\d.,%\u2014\u2013-"
_FIGURE = re.compile(f"[{_FIGURE_CHARS}]*\\d[{_FIGURE_CHARS}]*|[$\u20ac\u00a3\u2014\u2013-]")
_TYPE_ORDER = 100  # unnumbered styled headings rank after every numbering kind (PART 0, 1.1 12 ...)


def styled_headings(text: str, runs: list[Run]) -> list[Heading]:
    """Headings of a page that marks none up (no ``h1``-``h6``): lines set apart by their type.

    A line is a heading when all its text is bold, or set at least a fifth larger
    than the text's most common size, and it reads as a title: letters rather
    than figures, at most twenty words, not a sentence (a numbered line, ``Item
    2. | Management's Discussion``, is judged by its title), and not a table's
    row of three cells or more or of figures. Where bold lines
    hold more than a quarter of the text, only size sets a line apart. Levels come from the numbering
    (``PART`` above ``Item``, ``1.`` above ``1.1``), then from the type (larger
    first, capitals above mixed case), in the order the kinds appear.
    """
    lines: list[tuple[int, int, int, int, dict[float, int]]] = []  # start, end, chars, bold, sizes
    k = 0
    offset = 0
    for line in text.split("\n"):
        start, end = offset, offset + len(line)
        offset = end + 1
        chars = bold = 0
        sizes: dict[float, int] = {}
        while k < len(runs) and runs[k].end <= start:
            k += 1
        j = k
        while j < len(runs) and runs[j].start < end:
            r = runs[j]
            piece = text[max(r.start, start) : min(r.end, end)]
            n = len(piece) - piece.count(" ")
            chars += n
            bold += n if r.bold else 0
            if r.size is not None:
                sizes[r.size] = sizes.get(r.size, 0) + n
            j += 1
        if chars:
            lines.append((start, end, chars, bold, sizes))
    if not lines:
        return []
    plain: dict[float, int] = {}
    for _, _, chars, bold, sizes in lines:
        if bold < chars:
            for size, n in sizes.items():
                plain[size] = plain.get(size, 0) + n
    body = max(plain, key=lambda size: plain[size]) if plain else None
    # bold sets a line apart only where bold lines are a small part of the text
    bold_chars = sum(chars for _, _, chars, bold, _ in lines if bold == chars)
    bold_counts = bold_chars <= 0.25 * sum(chars for _, _, chars, _, _ in lines)
    found: list[tuple[int, str, tuple[object, int | None]]] = []
    typed: list[tuple[int, float | None, bool]] = []  # (index in found, size if larger, capitals)
    for start, end, chars, bold, sizes in lines:
        line_size = max(sizes, key=lambda x: sizes[x]) if sizes else None
        larger = line_size is not None and body is not None and line_size >= 1.2 * body
        if not (larger or (bold_counts and bold == chars)):
            continue
        cells = [c for c in text[start:end].split(" | ") if c.strip()]
        if len(cells) > 2 or any(_FIGURE.fullmatch(c.strip()) for c in cells[1:]):
            continue  # a table's bold row or column headings ("Total net sales | $ | 81,797")
        title = normalize_title(" ".join(cells))
        words = title.split()
        letters = sum(c.isalpha() for c in title)
        if letters < 2 or letters < sum(c.isdigit() for c in title) or len(words) > _MAX_STYLED_WORDS:
            continue
        style = classify(title)
        numbered = style is not None and style.kind not in ("caps", "alpha")
        rest = style.rest if numbered and style is not None and style.rest else title
        if looks_like_sentence(rest, max_words=_MAX_STYLED_WORDS, allow_lower=numbered) and not (
            style is not None and reads_as_labelled_title(style, max_words=_MAX_STYLED_WORDS)
        ):
            continue
        if numbered and style is not None:
            found.append((start, clip_title(title), ((style.kind, style.depth), style.order)))
        else:
            typed.append((len(found), line_size if larger else None, is_all_caps(title)))
            found.append((start, clip_title(title), (None, None)))
    # unnumbered headings rank by their type below the numbered kinds: larger first, then capitals
    kinds = sorted({(typed_size or 0.0, caps) for _, typed_size, caps in typed}, reverse=True)
    for i, typed_size, caps in typed:
        order = _TYPE_ORDER + kinds.index((typed_size or 0.0, caps))
        found[i] = (found[i][0], found[i][1], (("type", typed_size, caps), order))
    ranks = nest_levels([key for _, _, key in found])
    return [Heading(start, rank, title) for (start, title, _), rank in zip(found, ranks, strict=True)]


_CHROME_OPEN = re.compile(r"<(header|footer)\b[^<>]*>", re.IGNORECASE)
_CHROME_CLOSE = re.compile(r"</(header|footer)\s*>", re.IGNORECASE)
_MAIN = re.compile(r"<(main|article)\b", re.IGNORECASE)


def _drop_chrome(html: str) -> str:
    """Remove page-level ``<header>``/``<footer>`` blocks that lie outside ``<main>``/``<article>``.

    A block runs from an opening tag to the first closing tag of the same name
    after it (nesting is not followed); found in one pass over the tags.
    """
    m = _MAIN.search(html)
    if m is None:
        return html
    main_start = m.start()
    close = re.compile(rf"</{m.group(1)}\s*>", re.IGNORECASE).search(html, main_start)
    main_end = close.end() if close else len(html)
    closes: dict[str, list[tuple[int, int]]] = {"header": [], "footer": []}
    for c in _CHROME_CLOSE.finditer(html):
        closes[c.group(1).lower()].append((c.start(), c.end()))
    starts = {name: [a for a, _ in spans] for name, spans in closes.items()}
    pieces: list[str] = []
    pos = 0
    for o in _CHROME_OPEN.finditer(html):
        if o.start() < pos:
            continue  # inside a block already removed or kept whole
        name = o.group(1).lower()
        i = bisect.bisect_left(starts[name], o.end())
        if i >= len(starts[name]):
            continue  # never closed: kept
        end = closes[name][i][1]
        if not main_start <= o.start() < main_end:
            pieces.append(html[pos : o.start()])
            pos = end
    if not pieces:
        return html
    pieces.append(html[pos:])
    return "".join(pieces)


_COMMENT_CLOSE = re.compile(r"--\s*>")
_SECTION_CLOSE = re.compile(r"\]\s*>")
_MARKED_KEYWORD = re.compile(r"([A-Za-z]+)")
_MARKED_KEYWORDS = frozenset({"temp", "cdata", "ignore", "include", "rcdata", "if", "else", "endif"})


def _defuse(html: str) -> str:
    """Escape the ``<`` of constructs that can never be closed (the text they start stays the same).

    The standard parser looks for the end of such a construct (a tag after the
    last ``>``, a comment after the last ``-->``) to the end of the input once
    for every one of them, which is quadratic; it then keeps them as text, so
    writing their ``<`` as ``&lt;`` gives the same text in linear time.
    """
    cuts: list[int] = []
    last_gt = html.rfind(">")
    for opener, closer in (("<!--", _COMMENT_CLOSE), ("<![", _SECTION_CLOSE)):
        last_close = -1
        for found in closer.finditer(html):
            last_close = found.start()
        pos = html.find(opener, max(0, last_close - len(opener) + 1))
        while 0 <= pos <= last_gt:
            cuts.append(pos)
            pos = html.find(opener, pos + 1)
    tail = html.find("<", last_gt + 1)
    if not cuts and tail < 0:
        return html
    cuts.sort()
    pieces: list[str] = []
    prev = 0
    for c in cuts:
        pieces.append(html[prev:c])
        pieces.append("&lt;")
        prev = c + 1
    if tail >= 0:
        pieces.append(html[prev:tail])
        pieces.append(html[tail:].replace("<", "&lt;"))
    else:
        pieces.append(html[prev:])
    return "".join(pieces)
