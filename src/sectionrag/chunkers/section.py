"""``section``: chunk each section on its own, never mixing two sections in one chunk.

Each piece of the document between two section starts (see
:meth:`~sectionrag.types.Document.segments`) is chunked separately by an
inner strategy (``semantic`` by default). A section that holds nothing but its
heading line is carried into its first subsection (a chunk keeps its parent
headings rather than leaving them alone in a chunk of their own).

When the sections give fewer than ``min_chunks`` chunks (a flat document
without headings, a short report), the inner strategy is run over the whole
text instead; section starts still cut chunks there, so even then no chunk
mixes two sections.

With ``contextual_header=True`` (the default) each chunk's embedded text is
prefixed with the document's name and its section path (``annual report >
Report > Results``; ``document_title=False`` leaves the name out), stored in
``Chunk.context`` and counted inside the token budget; the chunk's ``text``
stays the span itself. The name is the file name, plus the organisation the
document's opening names on a line of its own (``2023 Q3 AAPL (Apple
Inc.)``); it is also kept in ``Chunk.title``, which the stores' full-text
search matches along with the chunk's text. With ``table_headers=True``, a chunk that starts inside a table's
body also carries the table's caption and column headings, so a row of
figures says which periods its columns are.

With ``table_size=N``, every text table of two rows or more (lines of
``|``-separated cells, with blank lines and short labels between them) is
cut out of the prose around it and packed, by whole rows, into chunks of at
most ``N`` tokens (header included), while the prose keeps ``size``: each
table chunk's span is exactly its rows, and a label line (``Operating
expenses:``) goes with the row after it.

With ``sentence_overlap=f`` (a fraction of the chunk size, at most 0.5),
each prose chunk after the first of its stretch of text also repeats the
last whole sentences of the chunk before it, up to ``f`` of the size and as
far as its own budget leaves room: never across a section start or a table,
and never a part of a sentence.

With ``sentence_context=f`` (default 0.15; 0 turns it off), each chunk
after the first of its section also embeds the last whole sentences of the
chunk before it, up to ``f`` of the size: they go at the end of its
contextual header (``Chunk.context``), so the vector reads the lead-in a
paraphrased line of dialogue or a row of figures needs, while the span,
``text`` and full-text search stay the chunk's own. A chunk whose embedded
text would then pass the cap keeps its header as it was.

With ``fine=f`` (default 0.5; 0 turns it off), every section is also
chunked the same way at ``f`` of the size, and those *fine* chunks (marked
``metadata["fine"]``, :attr:`~sectionrag.types.Chunk.fine`) come beside the
regular ones, in document order; a fine chunk with the span of a regular one
is left out. The regular chunks still cover the document once and never mix
sections; each fine chunk lies inside one section too. Searches drop a
result that overlaps a better one (:func:`~sectionrag.pipeline.search_store`),
so a question that one small piece answers gets that piece, and one that needs
more gets the regular chunk. Fine chunks are made only when ``f`` of the size
is at least :data:`~sectionrag.defaults.MIN_FINE_SIZE` tokens.

With ``table_rows=True``, every row of figures of a text table (a line of
``|``-separated cells with a label and figures, below the table's column
headings) is also indexed on its own as a fine chunk: its span is the row,
and its contextual header adds the table's caption and column headings, so
the vector of ``Gross margin | 36,413 | 35,885`` reads which statement and
which periods those figures belong to.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from sectionrag import registry
from sectionrag._checks import check_number
from sectionrag._sentences import split_sentences
from sectionrag.chunkers._base import BaseChunker, Planned, assemble, check_int
from sectionrag.chunkers._context import (
    TableHead,
    _is_row,
    document_label,
    document_name,
    table_heads,
    table_rows,
    table_runs,
)
from sectionrag.chunkers._spans import Measure, trim
from sectionrag.chunkers.sentence import pack_ranges
from sectionrag.defaults import DEFAULT_FINE, DEFAULT_SENTENCE_CONTEXT, DEFAULT_SIZE, MIN_FINE_SIZE
from sectionrag.errors import ConfigError
from sectionrag.types import FINE, Chunk, Document

__all__ = ["SectionChunker", "document_name"]

_SEPARATOR = " > "


class SectionChunker(BaseChunker):
    """Section-aware chunking over an inner strategy.

    Args:
        size: Maximum tokens per chunk, header included (default :data:`~sectionrag.defaults.DEFAULT_SIZE`).
        tokenizer: Counts tokens (default :class:`~sectionrag.tokenizers.WordTokenizer`).
        inner: The strategy used inside each section: a name (default ``"semantic"``)
            or a built-in chunker instance.
        contextual_header: Prefix the embedded text with the section path (default True).
        document_title: Put the document's name (its source's file name without
            extension, plus the organisation named on a line of its own in its
            opening) ahead of the section path in that header (default True;
            documents with neither, such as ``<memory>`` text, get none), and
            in ``Chunk.title`` for full-text search.
        table_headers: In that header, give a chunk that starts inside a table's
            body the table's caption and column-heading rows (default False).
        min_chunks: Below this many chunks from the sections, chunk the whole
            text instead (default 3; 0 turns it off).
        table_size: Pack each text table of two rows or more into chunks of
            whole rows of at most this many tokens, header included, apart
            from the prose (default None: tables are chunked with the prose).
            A row longer than that gets a chunk of its own, up to ``size``.
        sentence_overlap: Repeat, at the start of each prose chunk after the
            first of its section, the last whole sentences of the chunk before
            it, up to this fraction of the size and within the chunk's budget
            (default 0: no overlap; at most 0.5).
        sentence_context: Embed, after the contextual header of each chunk
            after the first of its section, the last whole sentences of the
            chunk before it, up to this fraction of the size (default
            :data:`~sectionrag.defaults.DEFAULT_SENTENCE_CONTEXT`; 0 turns it
            off; at most 0.5; nothing without ``contextual_header``). Spans
            and ``text`` do not change.
        fine: Also chunk every section at this fraction of the size, as fine
            chunks beside the regular ones (default
            :data:`~sectionrag.defaults.DEFAULT_FINE`; 0 turns it off; below 1;
            none when that is under :data:`~sectionrag.defaults.MIN_FINE_SIZE`
            tokens).
        table_rows: Also index every row of figures of a text table as a fine
            chunk of its own, its header naming the table's caption and column
            headings (default False).
        **inner_params: Passed to the inner strategy (``threshold``,
            ``min_sentences``, ``window``, ``embedder``, ``overlap``, ``unit``, ``pack`` ...).
    """

    strategy = "section"

    def __init__(
        self,
        *,
        size: int = DEFAULT_SIZE,
        tokenizer: Any = None,
        inner: str | BaseChunker = "semantic",
        contextual_header: bool = True,
        document_title: bool = True,
        table_headers: bool = False,
        min_chunks: int = 3,
        table_size: int | None = None,
        sentence_overlap: float = 0.0,
        sentence_context: float = DEFAULT_SENTENCE_CONTEXT,
        fine: float = DEFAULT_FINE,
        table_rows: bool = False,
        **inner_params: Any,
    ) -> None:
        super().__init__(size=size, tokenizer=tokenizer)
        if not isinstance(contextual_header, bool):
            raise TypeError(f"contextual_header must be a bool, not {type(contextual_header).__name__}")
        self.contextual_header = contextual_header
        if not isinstance(document_title, bool):
            raise TypeError(f"document_title must be a bool, not {type(document_title).__name__}")
        self.document_title = document_title
        if not isinstance(table_headers, bool):
            raise TypeError(f"table_headers must be a bool, not {type(table_headers).__name__}")
        self.table_headers = table_headers
        self.min_chunks = check_int("min_chunks", min_chunks, minimum=0)
        self.table_size = None if table_size is None else check_int("table_size", table_size, minimum=1)
        overlap = check_number("sentence_overlap", sentence_overlap, minimum=0)
        if overlap > 0.5:
            raise ConfigError(f"sentence_overlap must be a fraction of the size from 0 to 0.5, got {overlap}")
        self.sentence_overlap = overlap
        context = check_number("sentence_context", sentence_context, minimum=0)
        if context > 0.5:
            raise ConfigError(f"sentence_context must be a fraction of the size from 0 to 0.5, got {context}")
        self.sentence_context = context
        fine = check_number("fine", fine, minimum=0)
        if fine >= 1:
            raise ConfigError(f"fine must be a fraction of the size below 1 (0 turns it off), got {fine}")
        self.fine = fine
        if not isinstance(table_rows, bool):
            raise TypeError(f"table_rows must be a bool, not {type(table_rows).__name__}")
        self.table_rows = table_rows
        self._fine_chunker: SectionChunker | None = None
        if isinstance(inner, str):
            if inner == "section":
                raise ConfigError("inner strategy cannot be 'section'; choose another strategy")
            cls = registry.lookup("chunker", inner)
            try:
                built = cls(size=size, tokenizer=self.tokenizer, **inner_params)
            except TypeError as e:
                raise ConfigError(f"invalid parameters for inner strategy {inner!r}: {e}") from e
            if not isinstance(built, BaseChunker):
                raise ConfigError(
                    f"inner strategy {inner!r} must build on sectionrag.chunkers.BaseChunker "
                    f"(it plans spans inside each section), not {type(built).__name__}"
                )
            self.inner: BaseChunker = built
        elif isinstance(inner, BaseChunker) and not isinstance(inner, SectionChunker):
            if inner_params:
                raise ConfigError(
                    f"parameters {sorted(inner_params)} cannot be applied to an inner chunker instance"
                )
            self.inner = inner.with_default_tokenizer(self.tokenizer)  # count as the section does
        else:
            raise TypeError(
                f"inner must be a strategy name or a built-in chunker, not {type(inner).__name__}"
            )

    def __repr__(self) -> str:
        return (
            f"SectionChunker(size={self.size}, inner={self.inner!r}, "
            f"contextual_header={self.contextual_header}, document_title={self.document_title}, "
            f"table_headers={self.table_headers}, "
            f"min_chunks={self.min_chunks}, table_size={self.table_size}, "
            f"sentence_overlap={self.sentence_overlap}, sentence_context={self.sentence_context}, "
            f"fine={self.fine}, table_rows={self.table_rows})"
        )

    def header_for(self, path: tuple[str, ...], title: str = "") -> str:
        """Return the contextual header for a section path (``""`` when off or outside any section).

        ``title`` (the document's name) leads the path when given, unless the
        path already starts with it.
        """
        if not self.contextual_header:
            return ""
        if title and (not path or path[0].casefold() != title.casefold()):
            path = (title, *path)
        return _SEPARATOR.join(path)

    def title_of(self, document: Document) -> str:
        """Return the document's name used in headers (``""`` unless ``document_title``)."""
        if not (self.document_title and self.contextual_header):
            return ""
        return document_label(document.source, document.text, document.body_start)

    def chunk(self, document: Document) -> list[Chunk]:
        """Chunk each section separately (or the whole text), plus the fine chunks; see the module docs."""
        if not isinstance(document, Document):
            raise TypeError(f"chunk() expects a Document, not {type(document).__name__}")
        measure = Measure(document.text, self.tokenizer)
        chunks = self._chunk_once(document, measure)
        if not chunks:
            return chunks
        finer = self.fine_chunker()
        fine = [] if finer is None else finer._chunk_once(document, measure)
        if self.table_rows:
            fine += self._row_chunks(document, measure)
        return _with_fine(chunks, fine) if fine else chunks

    def _row_chunks(self, document: Document, measure: Measure) -> list[Chunk]:
        """One chunk per row of figures of the document's text tables (``table_rows``).

        The header is the section's, then the table's head; a row whose
        header and text pass the cap keeps the section's header alone, and a
        row that passes it even so is left to the regular chunks.
        """
        text = document.text
        title = self.title_of(document)
        rows = table_rows(text, document.body_start, len(text), frozenset(s.start for s in document.sections))
        if not rows:
            return []
        plans: list[tuple[int, int, list[str]]] = []
        for row in rows:
            header = self.header_for(document.section_path_at(row.start), title)
            options = [_with_head(header, row.head), header] if self.contextual_header else [""]
            plans.append((row.start, row.end, list(dict.fromkeys(options))))
        texts = [f"{h}\n{text[a:b]}" if h else text[a:b] for a, b, hs in plans for h in hs]
        counts = iter(measure.count_many(texts))
        out = []
        for a, b, headers in plans:
            fitting = [(h, n) for h, n in ((h, next(counts)) for h in headers) if n <= self.limit]
            if fitting:
                header, n = fitting[0]
                out.append(document.make_chunk(0, a, b, token_count=n, context=header, title=title))
        return out

    def fine_chunker(self) -> SectionChunker | None:
        """Return the chunker of the fine chunks (the same settings at ``fine`` of the size), or ``None``."""
        size = int(self.fine * self.limit)
        if size < MIN_FINE_SIZE:
            return None
        if self._fine_chunker is None or self._fine_chunker.size != size:
            params = {**self._params, "size": size, "fine": 0, "tokenizer": self.tokenizer}
            inner = params.get("inner")
            if isinstance(inner, BaseChunker):  # an instance: the same strategy at the fine size
                params["inner"] = type(inner)(*inner._args, **{**inner._params, "size": size})
            self._fine_chunker = SectionChunker(*self._args, **params)
        return self._fine_chunker

    def _chunk_once(self, document: Document, measure: Measure) -> list[Chunk]:
        """Chunk ``document`` at this chunker's size (no fine chunks)."""
        limit = self.limit
        carried: dict[int, tuple[str, ...]] = {}
        planned = self._by_section(document, measure, limit, carried)
        if len(planned) < self.min_chunks:
            carried_whole: dict[int, tuple[str, ...]] = {}
            whole = self._whole_text(document, measure, limit, carried_whole)
            if len(whole) > len(planned):
                planned, carried = whole, carried_whole
        chunks = assemble(document, measure, planned, limit, self.title_of(document))
        # a chunk that carries its parent headings belongs to the subsection it introduces
        chunks = [replace(c, section_path=carried[c.start]) if c.start in carried else c for c in chunks]
        return self._lead_in(measure, chunks)

    def _lead_in(self, measure: Measure, chunks: list[Chunk]) -> list[Chunk]:
        """Add the chunk before's last sentences to each chunk's header (``sentence_context``)."""
        most = int(self.sentence_context * self.limit)
        if most <= 0 or not self.contextual_header or len(chunks) < 2:
            return chunks
        text = measure.text
        changed: dict[int, tuple[str, int]] = {}  # chunk index: (new context, tokens of the lead-in)
        for i, (prev, c) in enumerate(itertools.pairwise(chunks), start=1):
            if prev.section_path != c.section_path or prev.end > c.start:
                continue
            spans = split_sentences(text, prev.start, prev.end).spans
            taken, room = len(spans), most
            while taken > 0:  # only the sentences looked at are counted
                cost = measure.exact(*spans[taken - 1])
                if cost > room:
                    break
                room -= cost
                taken -= 1
            if taken < len(spans):
                lead = " ".join(text[a:b] for a, b in spans[taken:])
                context = f"{c.context}\n{lead}" if c.context else lead
                changed[i] = (context, most - room if measure.additive else -1)
        out = list(chunks)
        # counts that add up across whitespace: the chunk's own plus its lead-in's; others counted
        todo = [i for i in sorted(changed) if changed[i][1] < 0]
        texts = [f"{changed[i][0]}\n{chunks[i].text}" for i in todo]
        counted = dict(zip(todo, measure.count_many(texts), strict=True))
        for i, (context, extra) in changed.items():
            n = chunks[i].token_count + extra if extra >= 0 else counted[i]
            if n <= self.limit:
                out[i] = replace(chunks[i], context=context, token_count=n)
        return out

    def _budget(self, measure: Measure, header: str, limit: int) -> tuple[str, int]:
        """Return the header actually used and the token budget left for the text."""
        if not header:
            return "", limit
        cost = measure.header_tokens(header)  # counted once per distinct header
        if cost > limit // 2:
            return "", limit  # a header that would crowd out the text is dropped
        return header, limit - cost

    def _by_section(
        self, document: Document, measure: Measure, limit: int, carried: dict[int, tuple[str, ...]]
    ) -> list[Planned]:
        text = document.text
        out: list[Planned] = []
        carry: int | None = None
        title = self.title_of(document)
        segments = document.segments()
        for k, (start, end, path) in enumerate(segments):
            a, b = trim(text, start, end)
            if b <= a:
                continue
            nxt = segments[k + 1][2] if k + 1 < len(segments) else None
            if (
                path
                and a == start
                and nxt is not None
                and len(nxt) > len(path)
                and nxt[: len(path)] == path
                and "\n" not in text[a:b]
            ):
                carry = start if carry is None else carry  # a heading alone: keep it with its subsection
                continue
            if carry is not None:
                carried[trim(text, carry, end)[0]] = path
                start, carry = carry, None
            header, budget = self._budget(measure, self.header_for(path, title), limit)
            tables = self._tables(document, start, end)
            if tables:  # room for the longest table head, or none of them
                full, full_budget = self._budget(measure, _with_head(header, _longest(tables)), limit)
                tables, budget = (tables, full_budget) if full else ([], budget)
            for x, y, n in self._plan(document, measure, start, end, budget):
                h = _with_head(header, _head_at(tables, trim(text, x, y)[0])) if tables else header
                out.append((x, y, h, -1 if h else n))
        if carry is not None:  # only headings left (the document ends inside them)
            out.append((carry, len(text), "", -1))
        return out

    def _tables(self, document: Document, start: int, end: int) -> list[TableHead]:
        """Return the heads of the tables in ``text[start:end]`` (none unless ``table_headers``)."""
        if not (self.table_headers and self.contextual_header):
            return []
        return table_heads(document.text, start, end, frozenset(s.start for s in document.sections))

    def _plan(
        self, document: Document, measure: Measure, start: int, end: int, budget: int
    ) -> list[tuple[int, int, int]]:
        """Plan ``text[start:end]``: the inner strategy, and table rows apart with ``table_size``."""
        if self.table_size is None:
            return self._prose(document, measure, start, end, budget)
        text = document.text
        rows_budget = max(1, budget - (self.limit - min(self.table_size, self.limit)))
        out: list[tuple[int, int, int]] = []
        pos = start
        for a, b in table_runs(text, start, end):
            if trim(text, pos, a)[1] > trim(text, pos, a)[0]:
                out += self._prose(document, measure, pos, a, budget)
            out += _pack_rows(text, measure, a, b, rows_budget)
            pos = b
        if trim(text, pos, end)[1] > trim(text, pos, end)[0]:
            out += self._prose(document, measure, pos, end, budget)
        return out

    def _prose(
        self, document: Document, measure: Measure, start: int, end: int, budget: int
    ) -> list[tuple[int, int, int]]:
        """Plan the prose ``text[start:end]`` with the inner strategy, then apply ``sentence_overlap``."""
        planned = self._inner(document, measure, start, end, budget)
        if self.sentence_overlap <= 0 or len(planned) < 2:
            return planned
        text = document.text
        cuts = document.boundaries()
        most = int(self.sentence_overlap * self.limit)
        out = [planned[0]]
        for (pa, pb, _), (a, b, n) in itertools.pairwise(planned):
            pa, pb = trim(text, pa, pb)
            a, b = trim(text, a, b)
            room = min(most, budget - (n if n >= 0 else measure.estimate(a, b)) - 2)
            if room <= 0 or pb > a or pb <= pa or cuts_between(cuts, pb, a):
                out.append((a, b, n))
                continue
            sentences = split_sentences(text, pa, pb, cuts=cuts).spans
            new_start = a
            for (sa, sb), cost in zip(
                reversed(sentences), reversed(measure.estimate_spans(sentences)), strict=False
            ):
                if cost > room or sb > a or cuts_between(cuts, sa, a):
                    break
                room -= cost
                new_start = sa
            out.append((new_start, b, n if new_start == a else -1))
        return out

    def _inner(
        self, document: Document, measure: Measure, start: int, end: int, budget: int
    ) -> list[tuple[int, int, int]]:
        plan = getattr(self.inner, "plan", None)
        if callable(plan):  # windowed strategies come with exact counts
            return [(a, b, n) for a, b, _, n in plan(measure, start, end, budget)]
        return [(a, b, -1) for a, b in self.inner.split(document, measure, start, end, budget)]

    def _whole_text(
        self, document: Document, measure: Measure, limit: int, carried: dict[int, tuple[str, ...]]
    ) -> list[Planned]:
        text = document.text
        heads = {s.start for s in document.sections}
        cuts = document.boundaries()
        header_budget = limit
        title = self.title_of(document)
        tables = self._tables(document, document.body_start, len(text))
        if self.contextual_header and (document.sections or title or tables):
            paths = [s.path for s in document.sections] or [()]
            longest = max(paths, key=lambda p: len(_SEPARATOR.join(p)))
            header, header_budget = self._budget(
                measure, _with_head(self.header_for(longest, title), _longest(tables)), limit
            )
            if tables and not header:
                tables = []
                header_budget = self._budget(measure, self.header_for(longest, title), limit)[1]
        out: list[Planned] = []
        for a, b, n in self._plan(document, measure, document.body_start, len(text), header_budget):
            pieces = _cut(text, a, b, cuts, heads)
            for x, y, carried_at in pieces:
                x, y = trim(text, x, y)
                if y <= x:
                    continue
                path = document.section_path_at(carried_at if carried_at is not None else x)
                if carried_at is not None:
                    carried[x] = path
                header, _ = self._budget(measure, self.header_for(path, title), limit)
                if tables:
                    header = _with_head(header, _head_at(tables, x))
                out.append((x, y, header, n if len(pieces) == 1 and not header else -1))
        return out


def _with_fine(chunks: list[Chunk], fine: list[Chunk]) -> list[Chunk]:
    """Merge ``fine`` chunks into ``chunks`` in document order: marked, one chunk per span (the first).

    Indices are numbered again (and ids made again from them), regular before fine at one start.
    """
    spans = {(c.start, c.end) for c in chunks}
    extra = []
    for c in fine:  # one chunk per span: a row that is also a whole fine chunk is kept once
        if (c.start, c.end) not in spans:
            spans.add((c.start, c.end))
            extra.append(replace(c, metadata=MappingProxyType({**c.metadata, FINE: True})))
    merged = sorted([*chunks, *extra], key=lambda c: (c.start, c.fine, c.end))
    return [c.numbered(i) for i, c in enumerate(merged)]


def _pack_rows(text: str, measure: Measure, start: int, end: int, budget: int) -> list[tuple[int, int, int]]:
    """Pack the lines of the table ``text[start:end]`` into spans of whole rows that fit ``budget``.

    A line that is not a row (a label such as ``Net sales:``) is kept with the
    row after it; blank lines are passed over.
    """
    items: list[tuple[int, int]] = []
    first: int | None = None
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        a, b = trim(text, pos, stop)
        if b > a:
            first = a if first is None else first
            if _is_row(text[a:b]):
                items.append((first, b))
                first = None
        pos = stop + 1
    if first is not None:  # (a table ends with a row; kept for safety)
        items.append((first, trim(text, first, end)[1]))
    costs = measure.estimate_spans(items)
    return [(items[i][0], items[j - 1][1], -1) for i, j in pack_ranges(costs, budget)]


def cuts_between(cuts: Sequence[int], a: int, b: int) -> bool:
    """Tell whether a section start lies in ``(a, b]``."""
    i = bisect.bisect_right(cuts, a)
    return i < len(cuts) and cuts[i] <= b


def _with_head(header: str, head: str) -> str:
    """``header`` followed by a table's head (either may be empty)."""
    return f"{header}{_SEPARATOR}{head}" if header and head else header or head


def _longest(tables: Sequence[TableHead]) -> str:
    return max((t.head for t in tables), key=len, default="")


def _head_at(tables: Sequence[TableHead], pos: int) -> str:
    """Return the head of the table whose body holds ``pos``, or ``""``."""
    for t in tables:
        if t.body <= pos < t.end:
            return t.head
    return ""


def _cut(
    text: str, a: int, b: int, cuts: Sequence[int], heads: set[int]
) -> list[tuple[int, int, int | None]]:
    """Split ``[a, b)`` at the section starts inside it, except after headings alone.

    Returns ``(start, end, carried)`` where ``carried`` is the last section
    start a piece runs past because only headings came before it.
    """
    i = bisect.bisect_right(cuts, a)
    out: list[tuple[int, int, int | None]] = []
    carried: int | None = None
    while i < len(cuts) and cuts[i] < b:
        c = cuts[i]
        if only_headings(text, a, c, heads):
            carried = c
        else:
            out.append((a, c, carried))
            a, carried = c, None
        i += 1
    out.append((a, b, carried))
    return out


def only_headings(text: str, start: int, end: int, heads: set[int]) -> bool:
    """Tell whether every non-blank line of ``text[start:end]`` starts at a section start."""
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        line_end = end if nl < 0 else nl
        if text[pos:line_end].strip() and pos not in heads:
            return False
        pos = line_end + 1
    return True
