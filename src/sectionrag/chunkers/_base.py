"""What every chunking strategy shares: parameters, the token cap and chunk assembly (private).

A strategy implements :meth:`BaseChunker.split`, which returns spans of the
document text planned with token *estimates*. :meth:`BaseChunker.chunk` then
trims the spans, counts each chunk's embedded text exactly (one batch), splits
any chunk over the cap at the least harmful point, and builds the
:class:`~sectionrag.types.Chunk` objects with ``Document.make_chunk``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, ClassVar

from sectionrag._checks import check_int
from sectionrag._describe import describe_call
from sectionrag.chunkers._spans import Measure, Span, trim
from sectionrag.defaults import DEFAULT_SIZE
from sectionrag.protocols import TokenCounter
from sectionrag.types import Chunk, Document

__all__ = ["BaseChunker", "Planned", "assemble", "check_int", "check_tokenizer"]

logger = logging.getLogger("sectionrag.chunkers")

#: a planned chunk: (start, end, header, exact token count or -1 when not counted yet)
Planned = tuple[int, int, str, int]

_UNLIMITED = 1 << 60


def check_tokenizer(tokenizer: Any) -> Any:
    """Return ``tokenizer`` (default :class:`~sectionrag.tokenizers.WordTokenizer`) after a sanity check."""
    if tokenizer is None:
        from sectionrag.tokenizers import WordTokenizer

        return WordTokenizer()
    if not callable(getattr(tokenizer, "count_tokens", None)):
        raise TypeError(
            f"tokenizer must have count_tokens(text) -> int (an Embedder or a tokenizer), "
            f"not {type(tokenizer).__name__}"
        )
    return tokenizer


def model_max_tokens(tokenizer: Any) -> int | None:
    """Return the tokenizer's own input limit (``max_tokens``) if it declares a positive one."""
    value = getattr(tokenizer, "max_tokens", None)
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


class BaseChunker:
    """Base of the built-in strategies (not required: any ``chunk(document)`` works).

    Args:
        size: Maximum tokens per chunk (the hard cap), counted on the embedded text.
        tokenizer: What counts tokens; an :class:`~sectionrag.protocols.Embedder`
            or a tokenizer. Its ``max_tokens``, if any, lowers the cap. Without
            one, words and punctuation are counted, and a
            :class:`~sectionrag.pipeline.Pipeline` gives the chunker its
            embedder's tokenizer (:meth:`with_default_tokenizer`).
    """

    strategy: ClassVar[str] = ""
    _params: dict[str, Any]
    _args: tuple[Any, ...]

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        obj = super().__new__(cls)
        obj._args = args  # the arguments as given: for config() and with_default_tokenizer()
        obj._params = dict(kwargs)
        return obj

    def __init__(self, *, size: int = DEFAULT_SIZE, tokenizer: Any = None) -> None:
        self.size = check_int("size", size, minimum=1)
        self.tokenizer = check_tokenizer(tokenizer)

    @property
    def limit(self) -> int:
        """The hard cap in tokens: ``min(size, tokenizer.max_tokens)``."""
        cap = model_max_tokens(self.tokenizer)
        return self.size if cap is None else min(self.size, cap)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(size={self.size}, tokenizer={_name(self.tokenizer)})"

    def config(self) -> dict[str, Any]:
        """Return the strategy and its constructor arguments (defaults filled in), JSON-ready.

        Ingestion records this with every indexed source to notice changed settings.
        """
        return {"strategy": self.strategy, **describe_call(self, getattr(self, "_params", {}))}

    def with_default_tokenizer(self, tokenizer: TokenCounter) -> BaseChunker:
        """Return this chunker counting tokens with ``tokenizer``, unless it was built with its own.

        A chunker built with ``tokenizer=...`` is returned as it is; one built
        without is built again with the same arguments plus ``tokenizer`` (the
        original is not changed).
        """
        params = getattr(self, "_params", {})
        if params.get("tokenizer") is not None:
            return self
        return type(self)(*getattr(self, "_args", ()), **{**params, "tokenizer": tokenizer})

    def chunk(self, document: Document) -> list[Chunk]:
        """Split ``document`` into chunks, in document order.

        Raises:
            TypeError: ``document`` is not a :class:`~sectionrag.types.Document`.
            ChunkingError: the cap cannot be honoured (a single character exceeds it).
        """
        if not isinstance(document, Document):
            raise TypeError(f"chunk() expects a Document, not {type(document).__name__}")
        measure = Measure(document.text, self.tokenizer)
        spans = self.split(document, measure, document.body_start, len(document.text), self.limit)
        planned: list[Planned] = [(a, b, "", -1) for a, b in spans]
        return assemble(document, measure, planned, self.limit)

    def split(self, document: Document, measure: Measure, start: int, end: int, budget: int) -> list[Span]:
        """Plan spans of ``text[start:end]`` whose estimated token counts fit ``budget``.

        Spans may keep surrounding whitespace (it is trimmed later) and may
        overlap (overlap strategies); each must lie inside ``[start, end)``.
        """
        raise NotImplementedError


def assemble(
    document: Document, measure: Measure, planned: Sequence[Planned], limit: int, title: str = ""
) -> list[Chunk]:
    """Trim, count exactly, enforce the cap and build the chunks (each with the document's ``title``)."""
    text = document.text
    items: list[Planned] = []
    for a, b, header, n in planned:
        ta, tb = trim(text, a, b)
        if tb > ta:
            items.append((ta, tb, header, n if (ta, tb) == (a, b) else -1))
    by_header: dict[str, list[int]] = {}
    for i, (a, b, h, n) in enumerate(items):
        if n < 0 and measure.beyond_window(a, b, limit):
            items[i] = (a, b, h, limit + 1)  # surely over the cap: split without counting it whole
        elif n < 0:
            by_header.setdefault(h, []).append(i)
    for header, todo in by_header.items():
        counts = measure.count_spans([(items[i][0], items[i][1]) for i in todo], header)
        for i, n in zip(todo, counts, strict=False):
            a, b, h, _ = items[i]
            items[i] = (a, b, h, n)
    final: list[Planned] = []
    for a, b, h, n in items:
        if n <= limit:
            final.append((a, b, h, n))
        else:
            final.extend((x, y, h, m) for x, y, m in measure.split_to_fit(a, b, limit, h))
    forced = measure.forced
    chunks = []
    for i, (a, b, h, n) in enumerate(final):
        meta = {"forced_split": True} if (a in forced or b in forced) else None
        chunks.append(document.make_chunk(i, a, b, token_count=n, context=h, metadata=meta, title=title))
    return chunks


def _name(obj: Any) -> str:
    name = getattr(obj, "name", None)
    return str(name) if isinstance(name, str) else type(obj).__name__


def unlimited() -> int:
    """Return a cap that never binds (character-sized strategies without a model limit)."""
    return _UNLIMITED
