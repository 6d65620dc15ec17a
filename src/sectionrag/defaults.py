"""Named defaults, in one place: every signature and CLI option that has a default takes it from here.

Changing a default here changes it for the Python API and the command line
alike. Each is the choice the benchmarks in ``benchmarks/`` support, or the
conventional value where nothing was measured.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_COLLECTION",
    "DEFAULT_EMBEDDER",
    "DEFAULT_FINE",
    "DEFAULT_FUSION",
    "DEFAULT_K",
    "DEFAULT_RERANK",
    "DEFAULT_SEARCH_MODE",
    "DEFAULT_SENTENCE_CONTEXT",
    "DEFAULT_SIMILARITY",
    "DEFAULT_SIZE",
    "DEFAULT_STORE",
    "DEFAULT_STRATEGY",
    "DEFAULT_WEIGHTS",
    "MAX_CHARS_RESULTS",
    "MIN_FINE_SIZE",
    "FUSIONS",
]

#: the embedder of a new collection: a registered name, a sentence-transformers model id or a path
DEFAULT_EMBEDDER: Final = "bge-m3"
#: the chunking strategy
DEFAULT_STRATEGY: Final = "section"
#: the similarity model of semantic chunking (a registered embedder name): a static model
#: distilled offline from the packaged MiniLM
DEFAULT_SIMILARITY: Final = "static"
#: maximum tokens per chunk (counted with the embedder's tokenizer when a pipeline binds one)
DEFAULT_SIZE: Final = 512
#: ``section`` chunks embed the last sentences of the chunk before after their header, up to this
#: fraction of the size (spans unchanged): +0.013 recall@5 and +0.13 span IoU on the development
#: half of benchmarks/retrieval_set, no kind losing a reference (docs/search.md)
DEFAULT_SENTENCE_CONTEXT: Final = 0.15
#: ``section`` chunking also chunks every section at this fraction of the size and indexes those
#: fine chunks beside the regular ones; searches drop a result that overlaps a better one, so a
#: question that one small piece answers gets the small piece: span IoU 4.15 -> 5.50 % at recall@5
#: 0.837 -> 0.834 on the development half of benchmarks/retrieval_set (docs/search.md)
DEFAULT_FINE: Final = 0.5
#: the least size, in tokens, of fine chunks: 64-token pieces beside 128 and 256 lost recall@5
#: (0.829 -> 0.752 on the development half), so a fine size below this adds none
MIN_FINE_SIZE: Final = 96
#: texts per embedding call: the embedder's forward pass and the pipeline's batches alike
DEFAULT_BATCH_SIZE: Final = 32
#: the store the command line opens on ``--db``
DEFAULT_STORE: Final = "lancedb"
#: collection (table) name
DEFAULT_COLLECTION: Final = "default"
#: results per search
DEFAULT_K: Final = 5
#: the most results a search with a ``max_chars`` budget returns when ``k`` is not given (10,000
#: characters of the default chunks take about 25); within 2,000 / 5,000 / 10,000 characters the
#: default search found more of the retrieval set's references than every peer chunker (docs/search.md)
MAX_CHARS_RESULTS: Final = 50
#: search mode: ``vector`` (cosine), ``text`` (BM25) or ``hybrid`` (both, fused); hybrid beat
#: vector-only recall@5 for every chunker on benchmarks/retrieval_set (docs/search.md)
DEFAULT_SEARCH_MODE: Final[Literal["vector", "text", "hybrid"]] = "hybrid"
#: the hybrid fusions a store offers (see docs/search.md)
FUSIONS: Final = ("linear", "rrf", "zscore")
#: hybrid fusion: ``linear`` (weighted min-max normalised scores), ``zscore`` (standardised scores)
#: or ``rrf`` (reciprocal rank fusion); zscore led linear by 0.005 recall@5 on benchmarks/retrieval_set
#: but lost 0.03 of evidence pages on the SEC 10-Q PDFs, so linear stays (docs/search.md)
DEFAULT_FUSION: Final = "linear"
#: hybrid ``(vector, text)`` weights: (1, 1) beat (1, 0.5) and the others tried for every chunker
#: on the development half of benchmarks/retrieval_set (docs/search.md)
DEFAULT_WEIGHTS: Final = (1.0, 1.0)
#: re-rank the best hybrid results by their best two-sentence window (``sectionrag._rerank``): opt-in.
#: +0.019 recall@5 on the development half of benchmarks/retrieval_set, but level on the test half and
#: about 5x the time of a search (an embedding call per query), so it is off (docs/search.md)
DEFAULT_RERANK: Final = False
