"""Search levers on the retrieval set's development half, computed on saved rankings.

For each section chunking (sizes from ``--sizes``; the document name and
section path as header, as ``Pipeline.default`` chunks), the chunks are
embedded with ``minilm`` (vectors cached as in ``bench_retrieval.py``) and
stored in LanceDB; every dev query's top 50 by vector and top 50 by BM25 are
saved once. Each lever then re-ranks or reshapes those candidates, so the
chunks and vectors are the same in every row and only the search changes:

- fusions: the store's ``linear`` and ``zscore`` at several weights, scores
  over the best, distribution-based (mean +- 3 sd), min-max over fewer candidates;
- the contextual header in the full-text index (BM25 over header + text);
- (``--fields``) the header's parts as full-text fields of their own beside the text
  (document label, section path, whole header; BM25 summed over fields, with weights);
- (chunks) a table's caption and first rows in the header of the chunks cut from it;
- section-level evidence added to chunk scores;
- near-duplicate removal;
- trimming results to the sentences that share a word with the query;
- merging adjacent hits of one section (and merging then trimming).

Printed: recall@5 / span IoU (%) overall and per kind of text (docs/search.md
explains each decision with these figures).

    python benchmarks/retrieval_levers.py --sizes 256,192,128,-256
    python benchmarks/retrieval_levers.py --sizes 256:names,256,256:tables,256:names+tables
    python benchmarks/retrieval_levers.py --sizes 256 --fields

The store's own text ranking is BM25 over the chunk's title and text (the
stores' ``fulltext``, since the fourth round); the figures of docs/search.md
for the earlier rounds and for ``--fields`` were measured when it was BM25 over
the text alone, so the plain ``linear (1, 1)`` row now equals the ``document
label in full-text`` row.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_retrieval as br

POOL = 50
K = 5
Hit = dict[str, Any]
Ranker = Callable[[dict[str, Any], list[Hit], list[Hit]], list[Hit]]


def table_head(text: str, start: int, max_lines: int = 3, max_chars: int = 200) -> str:
    """The caption and first rows of the table that a chunk starting at ``start`` continues, or ``""``."""
    end = text.find("\n", start)
    if "|" not in text[start : len(text) if end < 0 else end]:
        return ""
    pos, first = start, None  # walk back over the table: rows, blank lines, short label lines
    while pos > 0 and start - pos < 4000:
        a = text.rfind("\n", 0, pos - 1) + 1
        line = text[a:pos].strip()
        if "|" in line:
            first = a
        elif line and (len(line) >= 60 or line.startswith("#") or line.endswith(".")):
            break
        pos = a
    if first is None or first >= start:
        return ""
    caption: list[str] = []
    q = first
    while q > 0 and len(caption) < 3:
        a = text.rfind("\n", 0, q - 1) + 1
        line, q = text[a:q].strip(), a
        if not line:
            if caption:
                break
            continue
        if line.startswith("#") or "|" in line or len(line) > 100:
            break
        caption.insert(0, line)
    rows = [r.strip() for r in text[first:start].splitlines() if "|" in r][:max_lines]
    head = " / ".join(rows)
    return ((" ".join(caption) + ": " if caption else "") + head)[:max_chars]


def _with_table_heads(size: int) -> Callable[[Any, Any], list[Any]]:
    from dataclasses import replace

    def make(doc: Any, env: Any) -> list[Any]:
        out = []
        for c in br.section_variant(size, {"names"})(doc, env):
            head = table_head(doc.text, c.start)
            out.append(replace(c, context=" > ".join(x for x in (c.context, head) if x)) if head else c)
        return out

    return make


def parse_spec(spec: str) -> tuple[int, set[str]]:
    """``SIZE`` or ``SIZE:OPTION+OPTION`` (options of :func:`bench_retrieval.section_variant`)."""
    size, _, opts = spec.partition(":")
    return int(size), {o for o in opts.split("+") if o}


def rankings(
    size: int, items: list[Any], docs: dict[str, Any], env: Any, qvecs: Any, options: set[str] | None = None
) -> dict[str, Any]:
    """Chunk, embed and store one chunking; return every dev query's top-50 vector and text hits.

    A negative ``size`` is that size with table headings in the header (:func:`table_head`,
    the rule of the second round); ``options`` turn parts of the header off
    (:func:`bench_retrieval.section_variant`).
    """
    import lancedb
    import pyarrow as pa
    from lancedb import query as lance_query
    from lancedb.index import FTS

    from sectionrag.stores import LanceDBStore

    if size < 0:
        make = _with_table_heads(-size)
    elif options:
        make = br.section_variant(size, options)
    else:
        make = br._section(size=size)
    chunks = [c for d in docs.values() for c in make(d, env)]
    vectors = env.cache.embed([c.embed_text for c in chunks])

    def hit(c: Any, score: float) -> Hit:
        return {
            "id": c.id,
            "source": c.source,
            "start": c.start,
            "end": c.end,
            "index": c.index,
            "path": tuple(c.section_path),
            "score": float(score),
        }

    from sectionrag.chunkers._context import document_label, document_name

    labels = {
        name: document_name(name)
        if size < 0 or "names" in (options or set())
        else document_label(name, d.text, d.body_start)
        for name, d in docs.items()
    }
    by_id = {c.id: c for c in chunks}
    out: list[tuple[list[Hit], list[Hit], dict[str, list[Hit]]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = LanceDBStore(tmp, collection="c")
        store.ensure_collection(env.embedder.name, env.embedder.dimension)
        store.add(chunks, vectors)
        # other texts for BM25: the whole header, or the document label alone, ahead of the text
        full_text = {
            "header": [f"{c.context}\n{c.text}" for c in chunks],
            "label": [f"{labels[c.source]}\n{c.text}" for c in chunks],
        }
        tables = {}
        for key, texts in full_text.items():
            tables[key] = lancedb.connect(tmp + "/" + key).create_table(
                "t", pa.table({"i": list(range(len(chunks))), "ft": texts})
            )
            tables[key].create_index("ft", config=FTS(), replace=True)
        # the header's parts as fields of their own beside the text (BM25 per field, summed)
        path_of = {c.id: " ".join(c.section_path) for c in chunks}
        fields = lancedb.connect(tmp + "/fields").create_table(
            "t",
            pa.table(
                {
                    "i": list(range(len(chunks))),
                    "text": [c.text for c in chunks],
                    "label": [labels[c.source] for c in chunks],
                    "path": [path_of[c.id] for c in chunks],
                    "header": [c.context for c in chunks],
                }
            ),
        )
        for column in ("text", "label", "path", "header"):
            fields.create_index(column, config=FTS(), replace=True)

        def fts_hits(table: Any, query: Any) -> list[Any]:
            """The best ``POOL`` chunks of a full-text ``query`` on ``table``, best first."""
            rows = (
                table.search(query, query_type="fts")
                .select(["i", "_score"])
                .limit(POOL)
                .to_arrow()
                .to_pylist()
            )
            return [hit(chunks[r["i"]], r["_score"]) for r in sorted(rows, key=lambda r: -r["_score"])]

        for item, qv in zip(items, qvecs, strict=True):
            q = item.query.query
            vec = store.search(query_vector=qv, k=POOL, mode="vector")
            text = store.search(query_text=q, k=POOL, mode="text")
            other = {}
            for key, table in tables.items():
                other[key] = fts_hits(table, lance_query.MatchQuery(q, "ft"))
            for key, boosts in FIELD_SETS.items():
                clauses = [(lance_query.Occur.SHOULD, lance_query.MatchQuery(q, "text"))]
                clauses += [
                    (lance_query.Occur.SHOULD, lance_query.MatchQuery(q, col, boost=w))
                    for col, w in boosts.items()
                ]
                other[key] = fts_hits(fields, lance_query.BooleanQuery(clauses))
            out.append(
                (
                    [hit(by_id[h.chunk_id], h.score) for h in vec],
                    [hit(by_id[h.chunk_id], h.score) for h in text],
                    other,
                )
            )
    return {"size": size, "ranked": out}


#: BM25 over the text plus the header's parts as fields of their own (score: the sum, times each boost)
FIELD_SETS: dict[str, dict[str, float]] = {
    "f:label": {"label": 1.0},
    "f:label.5": {"label": 0.5},
    "f:label2": {"label": 2.0},
    "f:header": {"header": 1.0},
    "f:header.5": {"header": 0.5},
    "f:label+path": {"label": 1.0, "path": 1.0},
    "f:label+path.5": {"label": 1.0, "path": 0.5},
}


# -- fusions -----------------------------------------------------------------------------


def _norm(hits: list[Hit], how: str) -> dict[str, float]:
    if not hits:
        return {}
    s = [h["score"] for h in hits]
    if how == "max":
        return {h["id"]: h["score"] / s[0] if s[0] else 0.0 for h in hits}
    mean, sd = statistics.fmean(s), statistics.pstdev(s) or 1.0
    lo, hi = mean - 3 * sd, mean + 3 * sd  # dbsf
    return {h["id"]: (h["score"] - lo) / (hi - lo) for h in hits}


def fused(how: str, weights: tuple[float, float] = (1.0, 1.0), pool: int = POOL) -> Ranker:
    from sectionrag.stores._common import fuse

    def rank(item: dict[str, Any], vec: list[Hit], text: list[Hit]) -> list[Hit]:
        vec, text = vec[:pool], text[:pool]
        by_id = {h["id"]: h for h in text} | {h["id"]: h for h in vec}
        if how in ("linear", "zscore", "rrf"):
            order = fuse(
                [(h["id"], h["score"]) for h in vec], [(h["id"], h["score"]) for h in text], how, weights
            )
            return [dict(by_id[i], fused=s) for i, s in order]
        nv, nt = _norm(vec, how), _norm(text, how)
        score = {i: weights[0] * nv.get(i, 0.0) + weights[1] * nt.get(i, 0.0) for i in by_id}
        return [dict(by_id[i], fused=score[i]) for i in sorted(by_id, key=lambda i: -score[i])]

    return rank


# -- levers after fusion ------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)*")


def _stem(w: str) -> str:
    w = w.lower()
    for suffix in ("ations", "ation", "ings", "ing", "ies", "es", "ed", "ly", "s"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def _terms(text: str) -> set[str]:
    from sectionrag.enrich.extractive import STOP_WORDS

    return {_stem(m.group(0)) for m in _WORD.finditer(text) if m.group(0).lower() not in STOP_WORDS}


def trim_span(text: str, a: int, b: int, query_terms: set[str], how: str) -> tuple[int, int]:
    """The part of ``text[a:b]`` kept by trimming ``how`` (``cover``, ``cover+1``, ``best``)."""
    from sectionrag._sentences import split_sentences

    spans = split_sentences(text, a, b).spans
    if len(spans) < 3:
        return a, b
    scores = [len(_terms(text[x:y]) & query_terms) for x, y in spans]
    best = max(scores)
    if best == 0:
        return a, b
    if how == "best":
        keep = [scores.index(best)]
    else:
        keep = [i for i, s in enumerate(scores) if s >= 1]
        if how == "cover+1":
            keep.append(min(len(spans) - 1, max(keep) + 1))
    return spans[min(keep)][0], spans[max(keep)][1]


def trimmed(base: Ranker, texts: dict[str, str], how: str) -> Ranker:
    def rank(item: dict[str, Any], vec: list[Hit], text: list[Hit]) -> list[Hit]:
        q = _terms(item["query"])
        out = []
        for h in base(item, vec, text)[:K]:
            a, b = trim_span(texts[h["source"]], h["start"], h["end"], q, how)
            out.append(dict(h, start=a, end=b))
        return out

    return rank


def hierarchical(base: Ranker, lam: float, scope: str = "section", agg: str = "max") -> Ranker:
    def rank(item: dict[str, Any], vec: list[Hit], text: list[Hit]) -> list[Hit]:
        hits = base(item, vec, text)
        groups: dict[tuple[Any, ...], list[float]] = defaultdict(list)

        def key(h: Hit) -> tuple[Any, ...]:
            return (h["source"], h["path"] if scope == "section" else ())

        for h in hits:
            groups[key(h)].append(h["fused"])

        def bonus(h: Hit) -> float:
            others = sorted(groups[key(h)], reverse=True)
            others.remove(h["fused"])
            if not others:
                return 0.0
            return others[0] if agg == "max" else sum(others[:3]) / 3

        return sorted(hits, key=lambda h: -(h["fused"] + lam * bonus(h)))

    return rank


def dedup(base: Ranker, texts: dict[str, str], share: float) -> Ranker:
    def grams(h: Hit) -> set[tuple[str, ...]]:
        w = texts[h["source"]][h["start"] : h["end"]].split()
        return {tuple(w[i : i + 3]) for i in range(len(w) - 2)}

    def rank(item: dict[str, Any], vec: list[Hit], text: list[Hit]) -> list[Hit]:
        out: list[tuple[Hit, set[tuple[str, ...]]]] = []
        for h in base(item, vec, text):
            g = grams(h)
            if any(len(g & o) >= share * max(1, min(len(g), len(o))) for _, o in out):
                continue
            out.append((h, g))
            if len(out) == K:
                break
        return [h for h, _ in out]

    return rank


def merged(base: Ranker, texts: dict[str, str], trim: str | None = None) -> Ranker:
    def rank(item: dict[str, Any], vec: list[Hit], text: list[Hit]) -> list[Hit]:
        groups: list[Hit] = []
        for h in base(item, vec, text)[:15]:
            for g in groups:
                if (
                    g["source"] == h["source"]
                    and g["path"] == h["path"]
                    and h["index"] in (g["lo"] - 1, g["hi"] + 1)
                ):
                    g.update(
                        start=min(g["start"], h["start"]),
                        end=max(g["end"], h["end"]),
                        lo=min(g["lo"], h["index"]),
                        hi=max(g["hi"], h["index"]),
                    )
                    break
            else:
                if len(groups) < K:
                    groups.append(dict(h, lo=h["index"], hi=h["index"]))
        if trim:
            q = _terms(item["query"])
            for g in groups:
                g["start"], g["end"] = trim_span(texts[g["source"]], g["start"], g["end"], q, trim)
        return groups

    return rank


# -- scoring -----------------------------------------------------------------------------


def scores(refs: list[tuple[str, int, int]], got: list[Hit]) -> tuple[float, float]:
    """(recall@k by reference, Chroma span IoU) of the results ``got``."""
    from sectionrag.eval.retrieval import Reference, Retrieved
    from sectionrag.eval.spans import chroma_scores

    hit = [any(g["source"] == s and g["start"] < e and g["end"] > a for g in got) for s, a, e in refs]
    references = [Reference(source=s, start=a, end=e) for s, a, e in refs]
    retrieved = [Retrieved(g["source"], "", g["start"], g["end"], 0.0) for g in got]
    return sum(hit) / len(refs), chroma_scores(references, retrieved)[2]


def evaluate(
    saved: dict[str, Any], items: list[Any], rank: Ranker, ctx: str = ""
) -> dict[str, tuple[float, float]]:
    """Scores per kind of text; ``ctx`` picks the BM25 ranking over ``header`` or ``label`` + text."""
    per: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for item, (vec, text, other) in zip(items, saved["ranked"], strict=True):
        refs = [(r.source, r.start, r.end) for r in item.query.references]
        got = rank({"query": item.query.query}, vec, other[ctx] if ctx else text)[:K]
        per[item.corpus].append(scores(refs, got))
        per["all"].append(per[item.corpus][-1])
    return {
        c: (statistics.fmean(r for r, _ in v), 100 * statistics.fmean(i for _, i in v))
        for c, v in per.items()
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--sizes",
        default="256",
        help="comma-separated chunk sizes (tokens), each optionally SIZE:names+tables (file-name label, "
        "table heads on); a negative size adds the second round's table headings to a file-name-only header",
    )
    p.add_argument(
        "--fields", action="store_true", help="only the full-text field rows (header parts as fields)"
    )
    args = p.parse_args(argv)
    docs, items = br.load_set()
    items = [it for it in items if it.split == "dev"]
    texts = {name: d.text for name, d in docs.items()}
    env = br.make_env()
    qvecs = env.cache.embed([it.query.query for it in items], query=True)
    linear, z = fused("linear"), fused("zscore")
    rows: list[tuple[str, Ranker, str]] = [
        ("linear (1, 1)", linear, ""),
        ("linear (1, 1), header in full-text", linear, "header"),
        ("linear (1, 1), document label in full-text", linear, "label"),
        ("zscore (1, 1)", z, ""),
        ("zscore (1, 0.7)", fused("zscore", (1.0, 0.7)), ""),
        ("zscore (1, 1.5)", fused("zscore", (1.0, 1.5)), ""),
        ("zscore (1, 1), header in full-text", z, "header"),
        ("zscore (1, 1), document label in full-text", z, "label"),
        ("score / best (1, 1)", fused("max"), ""),
        ("mean +- 3 sd (1, 1)", fused("dbsf"), ""),
        ("linear (1, 1), top 20", fused("linear", pool=20), ""),
        ("linear (1, 1), top 30", fused("linear", pool=30), ""),
        ("linear + section best x 0.1", hierarchical(linear, 0.1), ""),
        ("linear + section best x 0.2", hierarchical(linear, 0.2), ""),
        ("linear + section best x 0.4", hierarchical(linear, 0.4), ""),
        ("linear + section mean-3 x 0.1", hierarchical(linear, 0.1, agg="mean3"), ""),
        ("linear + document best x 0.1", hierarchical(linear, 0.1, scope="document"), ""),
        ("linear, near-duplicates (80 %) dropped", dedup(linear, texts, 0.8), ""),
        ("linear, near-duplicates (50 %) dropped", dedup(linear, texts, 0.5), ""),
        ("linear, trimmed (cover)", trimmed(linear, texts, "cover"), ""),
        ("linear, trimmed (cover + 1)", trimmed(linear, texts, "cover+1"), ""),
        ("linear, trimmed (best sentence)", trimmed(linear, texts, "best"), ""),
        ("zscore, trimmed (cover)", trimmed(z, texts, "cover"), ""),
        ("linear, adjacent hits merged", merged(linear, texts), ""),
        ("linear, merged then trimmed", merged(linear, texts, "cover"), ""),
    ]
    if args.fields:
        rows = [
            ("linear (1, 1)", linear, ""),
            ("linear (1, 1), document label in full-text", linear, "label"),
            *[(f"linear (1, 1), text + {k[2:]} fields", linear, k) for k in FIELD_SETS],
            ("zscore (1, 1), text + label fields", z, "f:label"),
        ]
    for size, options in (parse_spec(s) for s in args.sizes.split(",")):
        saved = rankings(size, items, docs, env, qvecs, options)
        kinds: list[str] = []
        for label, rank, ctx in rows:
            m = evaluate(saved, items, rank, ctx)
            kinds = kinds or sorted(c for c in m if c != "all")
            if label == rows[0][0]:
                name = (
                    f"section {abs(size)}"
                    + (", table headings in the header" if size < 0 else "")
                    + (f" ({', '.join(sorted(options))})" if options else "")
                )
                print(f"\n{name}, dev half: recall@{K} / span IoU (%)\n")
                print("| search | all | " + " | ".join(kinds) + " |")
                print("|---|" + "---:|" * (len(kinds) + 1))
            cells = " | ".join(f"{m[c][0]:.3f} / {m[c][1]:.2f}" for c in ["all", *kinds])
            print(f"| {label} | {cells} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
