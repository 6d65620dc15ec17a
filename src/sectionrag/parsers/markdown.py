"""Markdown parser: ATX and setext headings, code fences, YAML front matter."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterator
from typing import Any

from sectionrag.parsers._sections import Heading, build_sections, clip_title, normalize_title
from sectionrag.parsers._source import TextFormatParser
from sectionrag.types import Document

__all__ = [
    "MAX_FRONT_MATTER",
    "MarkdownParser",
    "clean_inline",
    "find_markdown_headings",
    "parse_front_matter",
]

logger = logging.getLogger("sectionrag.parsers")

_ATX = re.compile(r"^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$")
_ATX_CLOSE = re.compile(r"(?:^|(?<![ \t])[ \t]+)#++[ \t]*+$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_THEMATIC = re.compile(r"^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_BLOCK_START = re.compile(r"^ {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>|\||<)")
_HTML_COMMENT_OPEN = re.compile(r"^ {0,3}<!--")


class MarkdownParser(TextFormatParser):
    """Parse Markdown; ``Document.text`` is the decoded file with LF newlines.

    Sections come from ATX (``# Title``) and setext (``Title`` over ``===``)
    headings; headings inside fenced code blocks (```` ``` ```` or ``~~~``) and
    HTML comments are ignored. YAML front matter becomes document metadata;
    ``metadata["title"]`` is the front matter's title or the first H1.
    """

    format = "markdown"

    def parse_text(
        self, text: str, *, source: str = "<memory>", metadata: dict[str, Any] | None = None
    ) -> Document:
        """Build a :class:`Document` from already decoded Markdown."""
        meta: dict[str, Any] = dict(metadata or {"format": "markdown"})
        front, body_start = parse_front_matter(text, source=source)
        meta.update(front)
        found = find_markdown_headings(text, body_start)
        if "title" not in meta:
            first_h1 = next((title for _, level, title in found if level == 1), None)
            if first_h1 is not None:
                meta["title"] = first_h1
        headings = [Heading(start, level, title) for start, level, title in found]
        sections = build_sections(headings, len(text))
        return Document.create(text, source=source, sections=sections, metadata=meta, body_start=body_start)


def find_markdown_headings(text: str, start: int = 0) -> list[tuple[int, int, str]]:
    """Return ``(offset, level, title)`` for each heading of ``text`` from ``start`` on.

    ``level`` is the Markdown level (1-6); offsets are where the heading's
    first line starts (for setext headings, the first line of the paragraph).
    """
    out: list[tuple[int, int, str]] = []
    fence: tuple[str, int] | None = None  # (char, length) of the open fence
    in_comment = False
    para_start = -1  # offset of the current paragraph's first line, -1 if none
    para_ok = False  # the paragraph can become a setext heading
    para_lines: list[str] = []  # its first lines (enough for a title)
    para_chars = 0
    for line_start, line in _lines(text, start):
        if fence is not None:
            m = _FENCE.match(line)
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= fence[1] and not m.group(3).strip():
                fence = None
            continue
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        if not line.strip():
            para_start, para_lines = -1, []
            continue
        m = _FENCE.match(line)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            fence = (m.group(2)[0], len(m.group(2)))
            para_start, para_lines = -1, []
            continue
        if _HTML_COMMENT_OPEN.match(line) and para_start < 0:
            if "-->" not in line[line.index("<!--") + 4 :]:
                in_comment = True
            continue
        m = _ATX.match(line)
        if m:
            content = _ATX_CLOSE.sub("", m.group(2).strip()).strip()
            title = clip_title(clean_inline(content[:_MAX_RAW_TITLE]))
            if title:
                out.append((line_start, len(m.group(1)), title))
            para_start, para_lines = -1, []
            continue
        m = _SETEXT.match(line)
        if m and para_start >= 0 and para_ok:
            title = clip_title(clean_inline(" ".join(p.strip() for p in para_lines)[:_MAX_RAW_TITLE]))
            if title:
                out.append((para_start, 1 if m.group(1)[0] == "=" else 2, title))
            para_start, para_lines = -1, []
            continue
        if _THEMATIC.match(line):
            para_start, para_lines = -1, []
            continue
        if para_start < 0:
            indented = line.startswith(("    ", "\t"))
            para_start, para_ok = line_start, not indented and not _BLOCK_START.match(line)
            para_lines, para_chars = [line], len(line)
            if indented:  # indented code: not a paragraph at all
                para_start = -1
        else:
            if para_chars < _MAX_RAW_TITLE:
                para_lines.append(line)
                para_chars += len(line)
            if _BLOCK_START.match(line):
                para_ok = False
    return out


# Every pattern below fails at the next opening delimiter, so a title full of
# unclosed brackets, tags or emphasis is cleaned in linear time.
_LINK = re.compile(r"!?\[([^\[\]]*)\]\((?:[^()]|\([^()]*\))*+\)")
_REF_LINK = re.compile(r"!?\[([^\[\]]*)\]\[[^\[\]]*\]")
_CODE = re.compile(r"`+([^`]*)`+")
_STRONG = re.compile(r"(\*\*|__)(?=\S)((?:(?!\1).)+?)(?<=\S)\1")
_EMPH = re.compile(r"(?<![\w*])([*_])(?=\S)([^*_]+?)(?<=\S)\1(?![\w*])")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_ATTRS = re.compile(r"(?<!\s)\s*\{[#.][^{}]*\}\s*$")
_MAX_RAW_TITLE = 1000  # characters of a heading line cleaned into its title
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def _lines(text: str, start: int) -> Iterator[tuple[int, str]]:
    """Yield ``(offset, line)`` for each line that starts at or after ``start``, one at a time."""
    if start > 0:  # start at the beginning of the line that holds ``start``
        offset = text.rfind("\n", 0, start) + 1
        if offset < start:
            offset = text.find("\n", start) + 1 or len(text) + 1
    else:
        offset = 0
    n = len(text)
    while offset <= n:
        nl = text.find("\n", offset)
        end = n if nl < 0 else nl
        yield offset, text[offset:end]
        offset = end + 1


def clean_inline(text: str) -> str:
    """Strip inline Markdown (links, emphasis, code, tags) from a heading's text."""
    text = _ATTRS.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPH.sub(r"\2", text)
    text = _TAG.sub("", text)
    text = _ESCAPE.sub(r"\1", text)
    return normalize_title(text)


_FM_OPEN = re.compile(r"^---[ \t]*$")
_FM_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_FM_CLOSE_LINE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_INT = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?\d*\.\d+(?:[eE][-+]?\d+)?")

#: front matter longer than this (characters) is not read as metadata; it stays text
MAX_FRONT_MATTER = 32_768
#: inline lists nested deeper than this are kept as the string they are
MAX_FLOW_DEPTH = 16
_MAX_INT_DIGITS = 18  # longer digit strings are identifiers, not quantities: kept as strings


def parse_front_matter(text: str, *, source: str = "<memory>") -> tuple[dict[str, Any], int]:
    """Parse YAML front matter at the very start of ``text``.

    Only the simple subset is understood (``key: value``, inline ``[a, b]``
    lists, ``- item`` lists, one level of nested ``key: value``); that keeps
    the result the same whether or not PyYAML is installed. Values that cannot
    be read as a number or list (a 5,000-digit number, lists nested 3,000
    deep) are kept as strings; front matter longer than
    :data:`MAX_FRONT_MATTER` characters is not read at all and stays part of
    the text (with a warning naming ``source``).

    Returns:
        ``(metadata, body_start)``: the parsed keys and the offset just after
        the closing ``---`` (0 when there is no front matter).
    """
    first_nl = text.find("\n")
    if first_nl < 0 or not _FM_OPEN.match(text, 0, first_nl):
        return {}, 0
    n = len(text)
    limit = min(n, first_nl + 1 + MAX_FRONT_MATTER)
    offset = first_nl + 1
    body: list[str] = []
    while offset <= limit:
        nl = text.find("\n", offset, limit)
        if nl < 0 and limit < n:  # the front matter runs past the limit
            if _FM_CLOSE_LINE.search(text, offset) is not None:
                logger.warning(
                    "%s: front matter longer than %d characters; kept as text, not read as metadata",
                    source,
                    MAX_FRONT_MATTER,
                )
            return {}, 0
        line_end = n if nl < 0 else nl
        line = text[offset:line_end]
        offset = line_end + 1
        if _FM_CLOSE.match(line):
            return _parse_simple_yaml(body, source), min(offset, n)
        body.append(line)
    return {}, 0


def _scalar(value: str, depth: int = 0) -> Any:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    if value.startswith("[") and value.endswith("]"):
        if depth >= MAX_FLOW_DEPTH:
            raise _Unreadable(f"an inline list nested deeper than {MAX_FLOW_DEPTH} levels")
        inner = value[1:-1].strip()
        return [_scalar(v, depth + 1) for v in _split_flow(inner)] if inner else []
    lowered = value.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if lowered in ("null", "~", ""):
        return None
    if _INT.fullmatch(value):
        digits = len(value.lstrip("+-"))
        return int(value) if digits <= _MAX_INT_DIGITS else value
    if len(value) <= 64 and _FLOAT.fullmatch(value):
        number = float(value)
        return number if math.isfinite(number) else value
    return value


class _Unreadable(ValueError):
    """A front matter value the simple reader keeps as a string."""


def _split_flow(inner: str) -> list[str]:
    """Split an inline list's inside at the commas of its own level (not inside quotes or brackets)."""
    parts: list[str] = []
    start = 0
    quote = ""
    depth = 0
    for i, ch in enumerate(inner):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [p.strip() for p in parts if p.strip()]


def _value(raw: str, key: str, source: str) -> Any:
    """Read one value; one that cannot be read is kept as its string, with a warning."""
    try:
        return _scalar(raw)
    except (_Unreadable, RecursionError) as e:
        logger.warning("%s: front matter %r: %s; kept as a string", source, key, e)
        return raw.strip()


def _strip_comment(line: str) -> str:
    if "#" not in line:
        return line
    out: list[str] = []
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        out.append(ch)
    return "".join(out)


def _parse_simple_yaml(lines: list[str], source: str = "<memory>") -> dict[str, Any]:
    result: dict[str, Any] = {}
    key: str | None = None
    for raw in lines:
        line = _strip_comment(raw).rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        stripped = line.strip()
        if indent == 0 and ":" in stripped and not stripped.startswith("- "):
            key, _, value = stripped.partition(":")
            key = key.strip().strip("'\"")
            result[key] = _value(value, key, source) if value.strip() else None
            continue
        if key is None:
            continue
        if stripped.startswith("- ") or stripped == "-":
            current = result.get(key)
            if not isinstance(current, list):
                current = []
                result[key] = current
            current.append(_value(stripped[1:], key, source))
        elif ":" in stripped:
            sub_key, _, value = stripped.partition(":")
            current_map = result.get(key)
            if not isinstance(current_map, dict):
                current_map = {}
                result[key] = current_map
            current_map[sub_key.strip().strip("'\"")] = _value(value, key, source)
        elif isinstance(result.get(key), str):
            result[key] = f"{result[key]} {stripped}"
        elif result.get(key) is None:
            result[key] = stripped
    return result
