"""Build ``queries.jsonl`` of the retrieval set from its three sources.

- ``authored.py``: queries written for this set by reading the documents;
- ``sec_questions.jsonl``: analysts' questions about the SEC filings with
  evidence found by ``sec_evidence.py``;
- ``../eval_data/queries.jsonl``: the queries of the older set over the
  three documents it shares with this one (their reference text becomes the
  quote).

Every quote is checked against the parsed text of its document (it must occur
exactly once). Within each kind of text, queries alternate between the ``dev``
half (tune on it) and the ``test`` half (report only). Run:

    python benchmarks/retrieval_set/build_set.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "src"))

from authored import QUERIES  # noqa: E402

import sectionrag  # noqa: E402
from sectionrag.eval.quotes import resolve_references  # noqa: E402

DOCS = HERE / "docs"
OLD = {  # file of the older set -> path in this one
    "sqlite_manual.md": "manual/sqlite_manual.md",
    "sotu_2014_transcript.txt": "transcript/sotu_2014_transcript.txt",
    "jargon_file_entries.md": "encyclopedia/jargon_file_entries.md",
}


def _quote(source: str, q: str | tuple[str, int], texts: dict[str, str]) -> dict:
    """A quote reference; a table row repeated in a filing is taken where it first occurs."""
    if isinstance(q, tuple):
        return {"source": source, "quote": q[0], "occurrence": q[1]}
    if source.startswith("finance/"):
        return _first_at(texts, source, q, -1)
    return {"source": source, "quote": q}


def _first_at(texts: dict[str, str], source: str, quote: str, at: int) -> dict:
    """A quote reference; where the quote occurs several times, the occurrence that starts at ``at``."""
    from sectionrag.eval.quotes import normalize

    norm, offsets = normalize(texts[source])
    needle = normalize(quote)[0]
    starts = []
    i = norm.find(needle)
    while i >= 0:
        starts.append(offsets[i])
        i = norm.find(needle, i + 1)
    ref = {"source": source, "quote": quote}
    if len(starts) > 1:
        ref["occurrence"] = starts.index(at) if at >= 0 else 0
    return ref


def main() -> int:
    texts_raw = {
        str(p.relative_to(DOCS)): sectionrag.parse(p).text for p in sorted(DOCS.glob("finance/*.md"))
    }
    rows: list[dict] = []
    for source, kind, query, quotes in QUERIES:
        rows.append(
            {
                "corpus": source.split("/")[0],
                "kind": kind,
                "query": query,
                "origin": "authored",
                "references": [_quote(source, q, texts_raw) for q in quotes],
            }
        )
    for line in (HERE / "sec_questions.jsonl").read_text(encoding="utf-8").splitlines():
        o = json.loads(line)
        rows.append(
            {
                "corpus": "finance",
                "kind": "question",
                "query": o["q"],
                "origin": "sec-10q questions.csv",
                "evidence_type": o["chunk"].lower(),
                "question_type": o["type"],
                "references": [
                    _first_at(texts_raw, "finance/" + r["source"], r["quote"], r["at"]) for r in o["refs"]
                ],
            }
        )
    for line in (HERE.parent / "eval_data" / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        o = json.loads(line)
        refs = [r for r in o["references"] if r["source"] in OLD]
        if not refs:
            continue
        source = OLD[refs[0]["source"]]
        rows.append(
            {
                "corpus": source.split("/")[0],
                "kind": o["kind"],
                "query": o["query"],
                "origin": "eval_data",
                "references": [{"source": OLD[r["source"]], "quote": r["answer"]} for r in refs],
            }
        )
    counters: dict[str, int] = {}
    for row in rows:
        n = counters[row["corpus"]] = counters.get(row["corpus"], 0) + 1
        row["id"] = f"{row['corpus']}-{n:03d}"
        row["split"] = "dev" if n % 2 else "test"
        needs = []
        if row.get("evidence_type") == "table" or any(" | " in r["quote"] for r in row["references"]):
            needs.append("table")
        if len(row["references"]) > 1:
            needs.append("several passages")
        row["needs"] = needs
    sources = sorted({r["source"] for row in rows for r in row["references"]})
    texts = {s: sectionrag.parse(DOCS / s).text for s in sources}
    resolve_references(rows, texts)  # raises on any quote that does not occur exactly once
    keys = (
        "id",
        "split",
        "corpus",
        "kind",
        "query",
        "needs",
        "origin",
        "evidence_type",
        "question_type",
        "references",
    )
    with (HERE / "queries.jsonl").open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps({k: row[k] for k in keys if k in row}, ensure_ascii=False) + "\n")
    print(f"{len(rows)} queries over {len(sources)} documents: {counters}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
