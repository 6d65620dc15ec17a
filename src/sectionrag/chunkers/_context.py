"""What a chunk's contextual header says beyond its section path (private).

- :func:`document_label`: the document's name for headers: its file name, and
  the organisation its opening names on a line of its own (the issuer on a
  report's or a filing's cover: ``2023 Q3 AAPL (Apple Inc.)``).
- :func:`table_runs`: where the text tables are, so that a chunker can cut
  them into chunks of their own.
- :func:`table_heads`: for each text table (lines of ``|``-separated cells),
  its caption and column-heading rows, so that a chunk starting inside the
  table can say which columns its numbers are in.
- :func:`table_rows`: each row of figures of those tables with the same head,
  so that a row can be indexed on its own and still say what its numbers are.

Both read the document text only; no span changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "TableHead",
    "TableRow",
    "document_label",
    "document_name",
    "issuer",
    "table_heads",
    "table_rows",
    "table_runs",
]

#: characters of a document's opening searched for an issuer's name
OPENING = 4000
#: characters of a table head (caption and column headings) kept in a header
HEAD_CHARS = 200

_SUFFIX = (
    r"(?:inc\.?|incorporated|corporation|corp\.?|company|co\.|ltd\.?|limited|llc|l\.l\.c\.|llp|"
    r"l\.p\.|plc|ag|se|s\.a\.|n\.v\.|gmbh|holdings|group)"
)
_ORG_LINE = re.compile(r"(?i)[^\W_][\w.&'\u2019\- ]*?,?\s+" + _SUFFIX)
_MARKUP = re.compile(r"^[#>*_\s]+|[*_\s]+$")
_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})+|\d+\.\d+|\(\s*\d|\d\s*%|\$\s*\d|\d\s*\$")
_INTEGER = re.compile(r"[$\s]*\d+[$\s]*")
_YEAR = re.compile(r"\s*(?:19|20)\d\d\s*")
_WORDS = re.compile(r"[^\W\d_]{2,}")
_SEPARATOR_ROW = re.compile(r"[\s|:+-]*-[\s|:+-]*")


def document_name(source: str) -> str:
    """Return a readable name for a source: its file name without extension, ``_`` and ``-`` as spaces.

    A placeholder source in angle brackets (``<memory>``) has no name (``""``).

    >>> document_name("reports/2023_Q3_AAPL.pdf")
    '2023 Q3 AAPL'
    """
    if source.startswith("<") and source.endswith(">"):
        return ""
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name.strip(".") else name
    return " ".join(stem.replace("_", " ").replace("-", " ").split())


def issuer(text: str, start: int = 0) -> str:
    r"""Return the first organisation named on a line of its own in the opening of ``text``, or ``""``.

    A line of at most eight words ending in a corporate word (``Inc.``,
    ``Corporation``, ``Ltd``, ``LLC``, ``plc``, ``AG``, ``GmbH``, ``Holdings``
    ...), within :data:`OPENING` characters of ``start``: the issuer printed on
    the cover of a report, filing or manual.

    >>> issuer("FORM 10-Q\n\nApple Inc.\n\n(Exact name of Registrant)")
    'Apple Inc.'
    """
    for line in text[start : start + OPENING].splitlines():
        name = _MARKUP.sub("", line)
        if 3 <= len(name) <= 80 and len(name.split()) <= 8 and _ORG_LINE.fullmatch(name):
            return name
    return ""


def document_label(source: str, text: str, start: int = 0) -> str:
    r"""Return the name a document goes by in headers: its file name, plus its issuer when named.

    The issuer (:func:`issuer`) is added in brackets unless the file name
    already holds its first word; a document without a file name goes by its
    issuer alone.

    >>> document_label("2023_Q3_AAPL.md", "FORM 10-Q\n\nApple Inc.\n")
    '2023 Q3 AAPL (Apple Inc.)'
    """
    name = document_name(source)
    org = issuer(text, start)
    if not org:
        return name
    if not name:
        return org
    first = re.sub(r"\W+", " ", org).split()[0].casefold()
    if first in re.sub(r"\W+", " ", name).casefold().split():
        return name
    return f"{name} ({org})"


@dataclass(frozen=True)
class TableHead:
    """A text table: where its rows run, and the head a chunk starting in its body should carry.

    ``body`` is where the rows after the column headings begin; a chunk that
    starts at or after ``body`` and before ``end`` carries ``head``.
    """

    body: int
    end: int
    head: str


@dataclass(frozen=True)
class TableRow:
    """A row of figures of a text table, and its table's head.

    ``start``/``end`` span the row's line without its surrounding blanks;
    ``head`` is the caption and column headings (``""`` when the table has none).
    """

    start: int
    end: int
    head: str


def _is_row(line: str) -> bool:
    return " | " in line or (line.startswith("|") and line.endswith("|") and len(line) > 1)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _is_data(line: str) -> bool:
    """Tell whether a row holds figures under a line label (column headings hold years or dates)."""
    cells = _cells(line)
    if not cells or not any(ch.isalpha() for ch in cells[0]):
        return False
    return any(_AMOUNT.search(c) or (_INTEGER.fullmatch(c) and not _YEAR.fullmatch(c)) for c in cells[1:])


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        out.append((pos, stop))
        pos = stop + 1
    return out


def _between(line: str) -> bool:
    """Tell whether a line may stand between a table's rows: blank, or a short label (``Net sales:``)."""
    s = line.strip()
    return not s or (len(s) <= 60 and not s.startswith("#") and not s.endswith("."))


def table_heads(text: str, start: int, end: int, heads: frozenset[int] = frozenset()) -> list[TableHead]:
    """Find the tables of ``text[start:end]`` and the head each one's body should carry.

    A table is a run of rows (lines with `` | `` between cells, or Markdown
    ``| ... |`` lines), with blank lines and short label lines allowed between
    them. Its column headings are its rows before the first row of figures
    (at most three; in Markdown, the rows before the ``|---|`` line); its
    caption is the nearest line above it unless that is a heading (a line
    starting at an offset in ``heads``: the section path names it already)
    or prose; notes in brackets such as ``(In millions)`` are passed over. A
    table without column headings (its first row holds figures, or it holds
    none: a layout or a line of code with ``|`` in it) gets no head.
    """
    lines = _lines(text, start, end)
    out: list[TableHead] = []
    for rows in _tables(text, lines):
        head, body = _head(text, lines, rows, heads)
        if head and body < lines[rows[-1]][1]:
            out.append(TableHead(body, lines[rows[-1]][1], head))
    return out


def table_rows(text: str, start: int, end: int, heads: frozenset[int] = frozenset()) -> list[TableRow]:
    """Return the rows of figures of the tables of ``text[start:end]``, each with its table's head.

    Tables, their heads and ``heads`` are as in :func:`table_heads`; only
    tables of two rows or more count (as in :func:`table_runs`), and of
    their rows only those below the column headings that hold figures under
    a line label (``Gross margin | 36,413 | 35,885``). Spans are document
    offsets of the row's line, blanks at either end left out, in order.
    """
    lines = _lines(text, start, end)
    out: list[TableRow] = []
    for rows in _tables(text, lines):
        if len(rows) < 2:
            continue
        head, body = _head(text, lines, rows, heads)
        for k in rows:
            a, b = lines[k]
            line = text[a:b]
            if a < body or not _is_data(line.strip()):
                continue
            lead = len(line) - len(line.lstrip())
            out.append(TableRow(a + lead, a + len(line.rstrip()), head))
    return out


def _head(text: str, lines: list[tuple[int, int]], rows: list[int], heads: frozenset[int]) -> tuple[str, int]:
    """Return a table's head (caption, then its column-heading rows; clipped) and where its body starts."""
    head_rows, body = _column_headings(text, lines, rows)
    caption = _caption(text, lines, rows[0], heads)
    head = " / ".join(head_rows)
    if head and caption:
        head = f"{caption.rstrip(':').rstrip()}: {head}"
    return _clip(head), body


def table_runs(text: str, start: int, end: int, *, min_rows: int = 2) -> list[tuple[int, int]]:
    """Return the spans of the tables of ``text[start:end]``: from a table's first row to its last.

    A table is found as :func:`table_heads` finds it (rows of ``|``-separated
    cells, with blank lines and short label lines between them), and counts
    only with at least ``min_rows`` rows (a single line with `` | `` in it is
    left to the prose around it). Spans are in document offsets, in order,
    and never overlap.
    """
    lines = _lines(text, start, end)
    return [(lines[rows[0]][0], lines[rows[-1]][1]) for rows in _tables(text, lines) if len(rows) >= min_rows]


def _tables(text: str, lines: list[tuple[int, int]]) -> list[list[int]]:
    """Return the tables among ``lines``, each as the indices of its rows, in order.

    A table starts at a row and runs over rows, blank lines and short label
    lines; it ends at its last row.
    """
    out: list[list[int]] = []
    i = 0
    while i < len(lines):
        if not _is_row(text[lines[i][0] : lines[i][1]].strip()):
            i += 1
            continue
        rows, j = [i], i
        while j + 1 < len(lines) and (
            _is_row(text[lines[j + 1][0] : lines[j + 1][1]].strip())
            or _between(text[lines[j + 1][0] : lines[j + 1][1]])
        ):
            j += 1
            if _is_row(text[lines[j][0] : lines[j][1]].strip()):
                rows.append(j)
        out.append(rows)
        i = rows[-1] + 1
    return out


def _column_headings(text: str, lines: list[tuple[int, int]], rows: list[int]) -> tuple[list[str], int]:
    """Return the table's heading rows (as written) and where its body starts."""
    cells = [text[lines[k][0] : lines[k][1]].strip() for k in rows]
    for n, line in enumerate(cells[:4]):
        if _SEPARATOR_ROW.fullmatch(line):  # Markdown: the rows above |---| are the headings
            body = lines[rows[n + 1]][0] if n + 1 < len(rows) else lines[rows[n]][1]
            return [" | ".join(c for c in _cells(x) if c) for x in cells[:n]], body
    n = 0
    while n < min(3, len(cells)) and not _is_data(cells[n]):
        n += 1
    if n == len(cells):  # no figures at all: a layout table, not one with column headings
        return [], lines[rows[0]][0]
    return [" | ".join(c for c in _cells(x) if c) for x in cells[:n]], lines[rows[n]][0]


def _caption(text: str, lines: list[tuple[int, int]], first: int, heads: frozenset[int]) -> str:
    """Return the nearest non-blank line above line ``first`` that says what the table is, or ``""``."""
    k = first - 1
    while k >= 0:
        a, b = lines[k]
        line = text[a:b].strip()
        if not line or (line.startswith("(") and line.endswith(")")):
            k -= 1
            continue
        if a in heads or line.startswith("#") or len(line) > 120 or _is_row(line) or line.endswith("."):
            return ""  # the section's own heading (already in the path), or prose
        return line if len(_WORDS.findall(line)) >= 2 else ""
    return ""


def _clip(head: str) -> str:
    if len(head) <= HEAD_CHARS:
        return head
    cut = head.rfind(" ", 0, HEAD_CHARS)
    return head[: cut if cut > 0 else HEAD_CHARS]
