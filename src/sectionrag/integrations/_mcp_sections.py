"""A document's sections for the MCP tools: outline nodes, and finding a section by its path or title."""

from __future__ import annotations

from collections.abc import Sequence

from sectionrag.errors import ConfigError
from sectionrag.integrations._mcp_results import SectionNode
from sectionrag.types import Section

_SEP = " > "


def _normalise(text: str) -> str:
    return " ".join(text.split()).casefold()


def section_node(s: Section) -> SectionNode:
    return SectionNode(
        title=s.title,
        level=s.level,
        path=list(s.path),
        page_start=s.page_start,
        page_end=s.page_end,
        start=s.start,
        end=s.end,
    )


def is_ancestor(path: Sequence[str], of: Sequence[str]) -> bool:
    return len(path) < len(of) and tuple(of[: len(path)]) == tuple(path)


def find_section(sections: Sequence[Section], wanted: str) -> Section:
    """Find a section by its path (titles joined by ``" > "``) or its title; case and spacing are ignored."""
    if not sections:
        raise ConfigError("this document has no sections (no headings were found); search it instead")
    key = _normalise(wanted)
    by_path = [s for s in sections if _normalise(_SEP.join(s.path)) == key]
    if by_path:
        return by_path[0]
    by_title = [s for s in sections if _normalise(s.title) == key]
    if len(by_title) == 1:
        return by_title[0]
    if by_title:
        paths = "; ".join(_SEP.join(s.path) for s in by_title[:10])
        raise ConfigError(f"several sections are titled {wanted!r}; give the path of one: {paths}")
    tail = [s for s in sections if _normalise(_SEP.join(s.path)).endswith(key)]
    if len(tail) == 1:
        return tail[0]
    shown = "; ".join(_SEP.join(s.path) for s in sections[:15])
    raise ConfigError(f"no section {wanted!r} in this document; its sections include: {shown} (see outline)")
