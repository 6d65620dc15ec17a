"""Which chunking retrieves a query best, for any document: strategies side by side.

Chunk one document with several strategies, embed every chunk (its
``embed_text``) and every query with one model, and report per strategy the
number of chunks, each chunk's cosine similarity with the query, the best
score and which chunk won.

Strategies are given as specs: a name (``paragraph``) or a name with
parameters, ``name:key=value:key=value`` (``overlap:unit=chars:size=100:overlap=30``,
``sentence:max_sentences=1``, ``paragraph:pack=true:size=40``). Values are
read as int, float, ``true``/``false``/``none``, else kept as text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sectionrag import registry
from sectionrag.errors import ConfigError
from sectionrag.protocols import Chunker
from sectionrag.types import Chunk, Document

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DEFAULT_STRATEGIES",
    "CompareResult",
    "QueryScores",
    "StrategyRow",
    "build_chunker",
    "compare",
    "parse_spec",
    "plot",
]

#: the strategies compared when none are named
DEFAULT_STRATEGIES = ("fixed", "overlap", "paragraph", "sentence", "recursive", "semantic", "section")


@dataclass(frozen=True, slots=True)
class QueryScores:
    """One query against one strategy's chunks."""

    query: str
    scores: list[float]
    best_score: float | None
    best_chunk_index: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: ``{"query", "best_score", "best_chunk_index", "scores"}``."""
        return {
            "query": self.query,
            "best_score": self.best_score,
            "best_chunk_index": self.best_chunk_index,
            "scores": self.scores,
        }


@dataclass(frozen=True, slots=True)
class StrategyRow:
    """One strategy's result: its chunks and each query's scores."""

    strategy: str
    chunks: list[Chunk]
    queries: list[QueryScores]

    @property
    def best_score(self) -> float | None:
        """The best cosine for one query; the mean of the per-query best for several."""
        bests = [q.best_score for q in self.queries if q.best_score is not None]
        if not bests:
            return None
        return bests[0] if len(self.queries) == 1 else round(sum(bests) / len(bests), 6)

    def to_dict(self, *, chunk_texts: bool = False) -> dict[str, Any]:
        """JSON shape of ``compare --json``'s rows (see :func:`compare`)."""
        one = self.queries[0] if len(self.queries) == 1 else None
        row: dict[str, Any] = {
            "strategy": self.strategy,
            "chunks": len(self.chunks),
            "best_score": self.best_score,
            "best_chunk_index": one.best_chunk_index if one else None,
            "scores": one.scores if one else None,
        }
        if len(self.queries) > 1:
            row["queries"] = [q.to_dict() for q in self.queries]
        if chunk_texts:
            row["chunk_texts"] = [c.text for c in self.chunks]
        return row


@dataclass(frozen=True, slots=True)
class CompareResult:
    """All rows of a comparison, in the order the strategies were given."""

    queries: list[str]
    embedder: str
    rows: list[StrategyRow] = field(default_factory=list)

    def to_dict(self, *, chunk_texts: bool = False) -> dict[str, Any]:
        """``{"rows": [...], "queries": [...], "embedder": ...}``."""
        return {
            "rows": [r.to_dict(chunk_texts=chunk_texts) for r in self.rows],
            "queries": list(self.queries),
            "embedder": self.embedder,
        }


def _value(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Parse ``name[:key=value...]`` into the strategy name and its parameters.

    Raises:
        ConfigError: a parameter is not ``key=value``.
    """
    name, *parts = spec.strip().split(":")
    params: dict[str, Any] = {}
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"bad strategy parameter {part!r} in {spec!r}; expected key=value")
        params[key.strip()] = _value(raw.strip())
    return name.strip(), params


def build_chunker(spec: str, **defaults: Any) -> Chunker:
    """Build the chunker for a spec; ``defaults`` (``tokenizer``, ``embedder`` ...) fill gaps.

    ``embedder`` is passed only to strategies that take it (``semantic``, and
    ``section`` with a semantic inner strategy).
    """
    name, params = parse_spec(spec)
    merged = dict(defaults)
    if name not in ("semantic", "section") or (
        name == "section" and params.get("inner", "semantic") != "semantic"
    ):
        merged.pop("embedder", None)
    merged.update(params)
    chunker: Chunker = registry.create("chunker", name, **merged)
    return chunker


def _unit(matrix: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    import numpy as np

    m = np.asarray(matrix, dtype=np.float64)
    norms = np.linalg.norm(m, axis=-1, keepdims=True)
    unit: npt.NDArray[np.float64] = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)
    return unit


def compare(
    document: Document,
    queries: Sequence[str],
    strategies: Sequence[str] | Mapping[str, Chunker] = DEFAULT_STRATEGIES,
    *,
    embedder: Any,
    tokenizer: Any = None,
    similarity: Any = None,
) -> CompareResult:
    """Chunk ``document`` with each strategy and score every chunk against every query.

    Args:
        document: The document.
        queries: One or more queries.
        strategies: Specs (``"paragraph"``, ``"overlap:unit=chars:size=100:overlap=30"``)
            or a mapping of label to chunker.
        embedder: Embeds chunks (``embed_documents``) and queries (``embed_query``).
        tokenizer: Sizes the chunks (default: ``embedder``, so chunks fit the model).
        similarity: Similarity model for ``semantic``/``section`` (default: their own).

    Returns:
        One row per strategy. Scores are cosine similarities rounded to 6 places;
        a strategy that gives no chunks has ``best_score`` ``None``.
    """
    import numpy as np

    if isinstance(queries, str):
        queries = [queries]
    queries = [q for q in queries]
    if not queries or not all(isinstance(q, str) and q.strip() for q in queries):
        raise ConfigError("compare needs at least one non-empty query")
    if isinstance(strategies, Mapping):
        chunkers = dict(strategies)
    else:
        if not strategies:
            raise ConfigError("compare needs at least one strategy")
        defaults: dict[str, Any] = {"tokenizer": embedder if tokenizer is None else tokenizer}
        if similarity is not None:
            defaults["embedder"] = similarity
        chunkers = {spec: build_chunker(spec, **defaults) for spec in strategies}
    qvecs = _unit(np.stack([np.asarray(embedder.embed_query(q)) for q in queries]))
    rows = []
    for label, chunker in chunkers.items():
        chunks = chunker.chunk(document)
        if chunks:
            cvecs = _unit(embedder.embed_documents([c.embed_text for c in chunks]))
            sims = qvecs @ cvecs.T
        else:
            sims = np.zeros((len(queries), 0))
        per_query = []
        for q, row in zip(queries, sims, strict=False):
            scores = [round(float(s), 6) for s in row]
            best = int(np.argmax(row)) if len(scores) else None
            per_query.append(QueryScores(q, scores, scores[best] if best is not None else None, best))
        rows.append(StrategyRow(label, chunks, per_query))
    return CompareResult(
        queries=list(queries), embedder=str(getattr(embedder, "name", type(embedder).__name__)), rows=rows
    )


def plot(result: CompareResult, path: str) -> None:
    """Save a bar chart of each strategy's best score to ``path`` (needs matplotlib).

    Raises:
        MissingDependencyError: matplotlib is not installed (``sectionrag[plot]``).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        from sectionrag.errors import MissingDependencyError

        raise MissingDependencyError('--plot needs matplotlib: pip install "sectionrag[plot]"') from e
    labels = [r.strategy for r in result.rows]
    values = [r.best_score if r.best_score is not None else 0.0 for r in result.rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(labels)), 4.0))
    try:
        bars = ax.bar(range(len(labels)), values, color="#4472c4")
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
        title = result.queries[0] if len(result.queries) == 1 else f"mean over {len(result.queries)} queries"
        ax.set_ylabel("best cosine similarity")
        ax.set_title(f"{title}  ({result.embedder})", fontsize=9)
        for bar, v in zip(bars, values, strict=False):
            ax.annotate(
                f"{v:.4f}", (bar.get_x() + bar.get_width() / 2, v), ha="center", va="bottom", fontsize=7
            )
        fig.tight_layout()
        fig.savefig(path, dpi=120)
    finally:
        plt.close(fig)
