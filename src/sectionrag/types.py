"""The data model: Document, Section, PageSpan, Chunk, SearchResult.

All are frozen dataclasses with slots. Offsets are character offsets into
``Document.text`` (Python ``str`` indices). Ids are deterministic hashes of
content, never of embeddings.

Section spans include the heading line: a section starts where its heading
starts and ends where the next heading of the same or a higher level starts
(or at the end of the text), so a parent's span contains its children.

Metadata rule (the only one): document metadata is merged into each chunk's
metadata, and the chunk's own keys win.
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import itertools
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final

from sectionrag.enrichment_fields import ENRICHMENT_KEYS

__all__ = ["FINE", "Chunk", "Document", "PageSpan", "SearchResult", "Section", "content_hash"]

#: the metadata key that marks a *fine* chunk: a smaller chunk lying inside the span of the
#: document's regular chunks, indexed beside them so a search can return the smaller piece
#: (``section`` chunking with ``fine``; see :attr:`Chunk.fine`)
FINE: Final = "fine"

_EMPTY: Mapping[str, Any] = MappingProxyType({})
_SURROGATE = re.compile("[\ud800-\udfff]")
logger = logging.getLogger("sectionrag")


def content_hash(*parts: str, length: int = 16) -> str:
    """Return a short, stable sha256 hex digest of ``parts`` (joined with NUL)."""
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:length]


def _chunk_id(doc_id: str, index: int, start: int, text: str) -> str:
    """Return the id of chunk ``index`` of document ``doc_id``, starting at ``start`` with ``text``."""
    return content_hash(doc_id, str(index), str(start), text)


@dataclass(frozen=True, slots=True)
class PageSpan:
    """One page of a document: ``number`` (1-based) covers ``text[start:end]``."""

    number: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and everything under it.

    Attributes:
        title: The heading text, whitespace-normalised.
        level: 1 for top-level headings, 2 below them, and so on.
        path: Titles from the root section down to this one (inclusive).
        start: Offset where the heading starts in ``Document.text``.
        end: Offset where the next heading of the same or higher level starts.
        page_start: First page of the section (1-based), ``None`` without pages.
        page_end: Last page of the section, ``None`` without pages.
    """

    title: str
    level: int
    path: tuple[str, ...]
    start: int
    end: int
    page_start: int | None = None
    page_end: int | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed source: the text every offset points into, plus its structure.

    Build one with :meth:`Document.create`, which computes the id and sorts the
    sections; the raw constructor trusts its arguments.
    """

    id: str
    source: str
    text: str
    sections: tuple[Section, ...] = ()
    pages: tuple[PageSpan, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    body_start: int = 0
    _lookup: _Lookup | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def create(
        cls,
        text: str,
        *,
        source: str = "<memory>",
        sections: Sequence[Section] = (),
        pages: Sequence[PageSpan] = (),
        metadata: Mapping[str, Any] | None = None,
        id: str | None = None,
        body_start: int = 0,
    ) -> Document:
        """Create a document; ``id`` defaults to a hash of the text.

        ``body_start`` is where the content begins: text before it (a
        Markdown file's YAML front matter) stays in ``text`` so that offsets
        match the source, but chunkers never put it in a chunk. Lone surrogate
        code points (which no encoder, tokenizer or store accepts) become U+FFFD,
        one for one, so offsets are unchanged.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        if not text.isascii() and _SURROGATE.search(text) is not None:
            count = len(_SURROGATE.findall(text))
            logger.warning(
                "%s: %d lone surrogate code point(s) replaced with U+FFFD (offsets unchanged)", source, count
            )
            text = _SURROGATE.sub("\ufffd", text)
        if not 0 <= body_start <= len(text):
            raise ValueError(f"body_start {body_start} is outside the text (length {len(text)})")
        ordered = tuple(sorted(sections, key=lambda s: (s.start, s.level)))
        return cls(
            id=id if id is not None else content_hash(text),
            source=source,
            text=text,
            sections=ordered,
            pages=tuple(sorted(pages, key=lambda p: p.start)),
            metadata=MappingProxyType(dict(metadata or {})),
            body_start=body_start,
        )

    def _lookups(self) -> _Lookup:
        """Return the document's lookup tables, built on first use (the document is immutable)."""
        lookup = self._lookup
        if lookup is None:
            lookup = _Lookup(self)
            object.__setattr__(self, "_lookup", lookup)
        return lookup

    def section_at(self, offset: int) -> Section | None:
        """Return the deepest section whose span contains ``offset`` (the later one on a tie)."""
        lookup = self._lookups()
        i = bisect.bisect_right(lookup.points, offset) - 1
        return lookup.deepest[i] if i >= 0 else None

    def section_path_at(self, offset: int) -> tuple[str, ...]:
        """Return the section path at ``offset`` (``()`` before the first heading)."""
        section = self.section_at(offset)
        return section.path if section is not None else ()

    def boundaries(self) -> tuple[int, ...]:
        """Offsets where a section starts, sorted, unique, excluding 0 and len(text).

        A chunk that honours sections never contains one of these strictly
        inside its span.
        """
        return self._lookups().boundaries

    def segments(self) -> list[tuple[int, int, tuple[str, ...]]]:
        """Split the text at every section start into ``(start, end, path)`` pieces.

        The pieces cover the text from ``body_start`` on, in order; each lies in
        exactly one innermost section (``path`` is ``()`` for text before the
        first heading).
        """
        cuts = [self.body_start, *(b for b in self.boundaries() if b > self.body_start), len(self.text)]
        out: list[tuple[int, int, tuple[str, ...]]] = []
        for start, end in itertools.pairwise(cuts):
            if end > start:
                out.append((start, end, self.section_path_at(start)))
        return out

    def pages_for(self, start: int, end: int) -> tuple[int | None, int | None]:
        """Return the first and last page numbers overlapping ``text[start:end]``."""
        if not self.pages:
            return None, None
        starts = self._lookups().page_starts
        last_char = max(start, end - 1)
        i = max(bisect.bisect_right(starts, start) - 1, 0)
        j = max(bisect.bisect_right(starts, last_char) - 1, 0)
        return self.pages[i].number, self.pages[j].number

    def make_chunk(
        self,
        index: int,
        start: int,
        end: int,
        *,
        token_count: int,
        metadata: Mapping[str, Any] | None = None,
        context: str = "",
        title: str = "",
    ) -> Chunk:
        """Build the chunk covering ``text[start:end]`` with path, pages and id filled in."""
        if not 0 <= start < end <= len(self.text):
            raise ValueError(f"invalid chunk span [{start}, {end}) for text of length {len(self.text)}")
        text = self.text[start:end]
        page_start, page_end = self.pages_for(start, end)
        # the document's (immutable) metadata is shared by chunks that add nothing to it
        own = self.metadata
        if metadata or not isinstance(own, MappingProxyType):
            own = MappingProxyType({**own, **(metadata or {})})
        return Chunk(
            id=_chunk_id(self.id, index, start, text),
            doc_id=self.id,
            index=index,
            text=text,
            start=start,
            end=end,
            token_count=token_count,
            section_path=self.section_path_at(start),
            page_start=page_start,
            page_end=page_end,
            source=self.source,
            context=context,
            metadata=own,
            title=title,
        )


class _Lookup:
    """Sorted tables that answer a document's offset queries by bisection.

    ``points[i]`` starts an interval of the text in which ``deepest[i]`` is the
    deepest enclosing section (``None`` where there is none). Built in
    O(s log s) for s sections, so that chunking stays linear however many
    sections a document has.
    """

    __slots__ = ("boundaries", "deepest", "page_starts", "points")

    def __init__(self, doc: Document) -> None:
        n = len(doc.text)
        sections = doc.sections
        self.boundaries: tuple[int, ...] = tuple(sorted({s.start for s in sections if 0 < s.start < n}))
        self.page_starts: list[int] = [p.start for p in doc.pages]
        self.points: list[int] = []
        self.deepest: list[Section | None] = []
        events = sorted({p for s in sections if s.start < s.end for p in (s.start, s.end)})
        order = sorted(range(len(sections)), key=lambda i: sections[i].start)
        active: list[tuple[int, int]] = []  # heap of (-level, -index): the deepest, then the latest
        k = 0
        for p in events:
            while k < len(order) and sections[order[k]].start <= p:
                i = order[k]
                if sections[i].start < sections[i].end:
                    heapq.heappush(active, (-sections[i].level, -i))
                k += 1
            while active and sections[-active[0][1]].end <= p:
                heapq.heappop(active)
            best = sections[-active[0][1]] if active else None
            if self.deepest and self.deepest[-1] is best:
                continue
            self.points.append(p)
            self.deepest.append(best)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A contiguous span of a document: ``document.text[start:end] == text``.

    ``context`` is an optional header (document title, section path) that is
    embedded ahead of the text but never stored as part of it; see
    :attr:`embed_text`. ``token_count`` counts the tokens of ``embed_text``.
    ``title`` is the document's name as the chunker labelled it (``""`` for
    none); stores match full-text queries against it along with ``text``
    (:attr:`search_text`), so a query naming the document finds its chunks.
    """

    id: str
    doc_id: str
    index: int
    text: str
    start: int
    end: int
    token_count: int
    section_path: tuple[str, ...] = ()
    page_start: int | None = None
    page_end: int | None = None
    source: str = ""
    context: str = ""
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    title: str = ""

    def numbered(self, index: int) -> Chunk:
        """Return this chunk numbered ``index`` (its id made again from the number), or itself if it is."""
        if index == self.index:
            return self
        return replace(self, index=index, id=_chunk_id(self.doc_id, index, self.start, self.text))

    @property
    def embed_text(self) -> str:
        """The text given to the embedder: ``context`` (if any), a newline, then ``text``."""
        return f"{self.context}\n{self.text}" if self.context else self.text

    @property
    def fine(self) -> bool:
        """Whether this is a fine chunk (metadata ``fine``): one that overlaps the document's regular chunks.

        The regular chunks of a document cover it once; its fine chunks are
        smaller pieces of the same text, indexed beside them.
        """
        return self.metadata.get(FINE) is True

    @property
    def search_text(self) -> str:
        """The text full-text search matches: ``title`` (if any), a newline, then ``text``."""
        return f"{self.title}\n{self.text}" if self.title else self.text


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One hit: enough to cite the source, plus a score (higher is better) and rank (1-based)."""

    rank: int
    score: float
    text: str
    doc_id: str
    source: str
    section_path: tuple[str, ...]
    page_start: int | None
    page_end: int | None
    start: int
    end: int
    chunk_id: str = ""
    chunk_index: int = 0
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    @property
    def enrichment(self) -> dict[str, Any]:
        """The enrichment fields of the hit's chunk (``summary``, ``questions`` ...), if it has any."""
        return {k: self.metadata[k] for k in ENRICHMENT_KEYS if k in self.metadata}

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape of a result in ``sectionrag search --json``.

        The citation fields, plus ``enrichment`` (see :attr:`enrichment`) when
        the chunk was enriched.
        """
        out: dict[str, Any] = {
            "rank": self.rank,
            "score": self.score,
            "text": self.text,
            "doc_id": self.doc_id,
            "source": self.source,
            "section_path": list(self.section_path),
            "page_start": self.page_start,
            "page_end": self.page_end,
            "start": self.start,
            "end": self.end,
        }
        enrichment = self.enrichment
        if enrichment:
            out["enrichment"] = enrichment
        return out
