"""Evidence pages in the top 5: the SEC 10-Q filings, searched as PDFs.

The SEC 10-Q development corpus (19 Form 10-Q filings of Apple, Amazon,
Intel, Microsoft and NVIDIA as PDF, with analysts' questions and answers in
``questions.csv``) is parsed by sectionrag's PDF parser, chunked, embedded with
``minilm`` and stored in one LanceDB collection per configuration; every
question is searched at k = 5.

Evidence is found by a rule that never looks at any chunker: every figure an
answer states (``$82,959 million``, ``15.7%``, ``1,279``; years and numbers of
fewer than three digits are not figures) is looked up in the pages of the
filings the question cites; the pages that print it are that figure's
evidence pages (in every cited filing that prints it on at most
``--max-pages`` pages, 3: a figure printed on more pages of a filing says
nothing about where the answer is). Questions with no such figure are left
out.

Measures, per configuration:

- **evidence hit rate**: share of the figures (over all questions) of which
  some evidence page is a page of a top-5 result of the same filing;
- **question hit rate**: share of questions with at least one figure hit.

Configurations: ``sectionrag default`` (``Pipeline.default(embedder="minilm")``
searched with ``Pipeline.search(query)`` and no options; ``rerank``: the same with
``rerank=True``) and plain ``fixed``
512-token chunks with vector search, plus each one's chunks in the other
modes (``hybrid zscore``: hybrid with z-score fusion instead of the default
min-max fusion), so chunking and search can be told apart; and the default's
chunks with the header of earlier releases (``section 256, file-name
header``: the file name and section path only, no issuer) and with table
heads (``section 256, table heads``: ``table_headers=True``); ``section 256, no sentence
context`` (the default's chunks before the fifth round, ``sentence_context=0``) and the chunk
shapes of the fifth round (``bench_retrieval.shape_configs``: tables packed apart, sentence
overlap), each with the default search and vector search.

Vectors are cached with ``bench_retrieval.py``'s cache (``benchmarks/.cache``).

    python benchmarks/bench_sec_pages.py                       # prints the table
    python benchmarks/bench_sec_pages.py --corpus /path/to/sec-10q --write   # and updates docs/benchmarks.md
    python benchmarks/bench_sec_pages.py --only "default,fixed"               # some configurations
    python benchmarks/bench_sec_pages.py --only "=sectionrag default" --modes default,vector
    python benchmarks/bench_sec_pages.py --only "=sectionrag default,=fixed 512" --max-chars 5000
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_retrieval as br

CORPUS = Path("/work/shared/corpus/sec-10q")
START, END = "<!-- sec-pages:start -->", "<!-- sec-pages:end -->"

_NUM = re.compile(r"\$?\s?(\d{1,3}(?:,\d{3})+|\d+\.\d+|\d{3,})")


def figures(answer: str) -> list[str]:
    """The figures an answer states, in order, without repeats (years and short numbers left out).

    >>> figures("Net sales were $82,959 million in 2022, up 2.5% from 81,434; 12 items")
    ['82,959', '2.5', '81,434']
    """
    out = []
    for m in _NUM.finditer(answer):
        n = m.group(1)
        if re.fullmatch(r"(19|20)\d\d", n):
            continue
        if len(re.sub(r"\D", "", n)) < 2 or (n.isdigit() and len(n) < 3):
            continue
        out.append(n)
    return list(dict.fromkeys(out))


def printed_on(text: str, figure: str) -> bool:
    """Whether ``text`` prints ``figure`` as a whole number (not inside a longer one)."""
    return re.search(r"(?<![\d,.])" + re.escape(figure) + r"(?![\d]|,\d|\.\d)", text) is not None


@dataclass
class Question:
    text: str
    kind: str
    evidence: list[tuple[str, set[tuple[str, int]]]]  # (figure, (filing, page) that print it)


def load_questions(corpus: Path, docs: dict[str, Any], max_pages: int) -> tuple[list[Question], int]:
    """Questions with their figures' evidence pages; also the number of questions left out."""
    with open(corpus / "questions.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    pages: dict[str, list[tuple[int, str]]] = {
        name: [(p.number, d.text[p.start : p.end]) for p in d.pages] for name, d in docs.items()
    }
    out, dropped = [], 0
    for r in rows:
        pattern = r["Source Docs"].strip().strip("*").replace(" ", "_")
        cited = [n for n in docs if pattern in n]
        evidence = []
        for fig in figures(r["Answer"]):
            where: set[tuple[str, int]] = set()
            for name in cited:
                on = {num for num, text in pages[name] if printed_on(text, fig)}
                if len(on) <= max_pages:
                    where |= {(name, num) for num in on}
            if where:
                evidence.append((fig, where))
        if evidence:
            out.append(Question(r["Question"], r["Source Chunk Type"], evidence))
        else:
            dropped += 1
    return out, dropped


def score(question: Question, hits: list[Any]) -> tuple[int, int]:
    """(figures with an evidence page in the results, figures)."""
    got = 0
    for _fig, where in question.evidence:
        if any(
            h.page_start is not None
            and any(
                h.source == name and h.page_start <= p <= (h.page_end or h.page_start) for name, p in where
            )
            for h in hits
        ):
            got += 1
    return got, len(question.evidence)


def run(
    corpus: Path,
    k: int,
    max_pages: int,
    only: str | None = None,
    modes: str | None = None,
    max_chars: int | None = None,
) -> tuple[str, dict[str, Any]]:
    import sectionrag
    from sectionrag.defaults import MAX_CHARS_RESULTS
    from sectionrag.pipeline import within_chars
    from sectionrag.stores import LanceDBStore

    t0 = time.perf_counter()
    docs = {p.name: sectionrag.parse(p, name=p.name) for p in sorted((corpus / "pdfs").glob("*.pdf"))}
    print(f"parsed {len(docs)} filings in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    questions, dropped = load_questions(corpus, docs, max_pages)
    env = br.make_env()
    qvecs = env.cache.embed([q.text for q in questions], query=True)
    configs = [
        ("sectionrag default", br._default_chunks, ("default", "rerank", "vector", "text", "hybrid zscore")),
        ("section 256, table rows", br._section(size=256, table_rows=True), ("default", "vector")),
        ("section 256, file-name header", br.section_variant(256, {"names"}), ("default", "vector")),
        ("section 256, table heads", br.section_variant(256, {"tables"}), ("default", "vector")),
        ("fixed 512", br._strategy("fixed", size=512), ("vector", "hybrid", "hybrid zscore")),
        (
            "section 256, no sentence context",
            br._section(size=256, sentence_context=0),
            ("default", "vector"),
        ),
        *[
            (c.label, c.make, ("default", "vector"))
            for c in br.shape_configs()
            if c.label.startswith("section 256")
        ],
    ]
    if only:
        wanted = [w.strip().lower() for w in only.split(",")]
        configs = [
            c
            for c in configs
            if any(c[0].lower() == w[1:] if w.startswith("=") else w in c[0].lower() for w in wanted)
        ]
    if modes:
        keep = {m.strip() for m in modes.split(",")}
        configs = [(label, make, tuple(m for m in ms if m in keep)) for label, make, ms in configs]
        configs = [c for c in configs if c[2]]
    depth = MAX_CHARS_RESULTS if max_chars else k  # (a budget reads on past the k-th result)
    rows = []
    with tempfile.TemporaryDirectory(prefix="sectionrag-sec-") as tmp:
        for label, make, modes in configs:
            chunks = [c for d in docs.values() for c in make(d, env)]
            vectors = env.cache.embed([c.embed_text for c in chunks])
            store = LanceDBStore(tmp, collection=re.sub(r"[^\w.-]+", "_", label))
            store.ensure_collection(env.embedder.name, env.embedder.dimension)
            store.add(chunks, vectors)
            for mode in modes:
                got = total = qhit = 0
                for q, qv in zip(questions, qvecs, strict=True):
                    if mode in ("default", "rerank"):  # Pipeline.search, or with rerank=True
                        hits = br.search_default(
                            store, env.embedder, q.text, qv, depth, env.cache.embed, rerank=mode == "rerank"
                        )
                    elif mode.startswith("hybrid "):  # another fusion than the store's default
                        hits = store.search(qv, q.text, k=depth, mode="hybrid", fusion=mode.split()[1])
                    else:
                        hits = store.search(query_vector=qv, query_text=q.text, k=depth, mode=mode)
                    # (with a budget: whole results while they fit, as Pipeline.search(max_chars=) returns)
                    g, n = score(q, within_chars(hits, max_chars) if max_chars else hits[:k])
                    got, total, qhit = got + g, total + n, qhit + (g > 0)
                rows.append((label, mode, len(chunks), got / total, qhit / len(questions)))
                print(f"  {label} {mode}: evidence {got / total:.3f}", file=sys.stderr)
    n_fig = sum(len(q.evidence) for q in questions)
    at = f" within {max_chars:,} chars" if max_chars else f"@{k}"
    lines = [
        f"| configuration | mode | chunks | evidence hit rate{at} | question hit rate{at} |",
        "|---|---|---:|---:|---:|",
    ]
    lines += [f"| {lb} | {m} | {n} | {e:.3f} | {qh:.3f} |" for lb, m, n, e, qh in rows]
    lines += [
        "",
        f"{len(docs)} filings ({sum(len(d.pages) for d in docs.values())} pages), {len(questions)} questions "
        f"with {n_fig} evidence figures ({dropped} questions without a figure printed on 1-{max_pages} "
        f"pages of a cited filing left out); embedder `{env.embedder.name}`; "
        + (f"results within {max_chars:,} characters; " if max_chars else f"k = {k}; ")
        + f"generated by `python benchmarks/bench_sec_pages.py` on {time.strftime('%Y-%m-%d')}.",
    ]
    return "\n".join(lines), {"rows": rows}


def write_doc(text: str) -> None:
    doc = br.DOC
    current = doc.read_text(encoding="utf-8")
    block = f"{START}\n{text}\n{END}"
    if START in current and END in current:
        head, rest = current.split(START, 1)
        _, tail = rest.split(END, 1)
        doc.write_text(head + block + tail, encoding="utf-8")
    else:
        doc.write_text(current.rstrip() + "\n\n" + block + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", type=Path, default=CORPUS, help="the sec-10q folder (pdfs/, questions.csv)")
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--max-pages", type=int, default=3, help="leave out figures printed on more pages")
    p.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    p.add_argument("--only", default=None, help="comma-separated label substrings to run (=LABEL: exactly)")
    p.add_argument("--modes", default=None, help="comma-separated search modes to run (default: all)")
    p.add_argument(
        "--max-chars",
        type=int,
        default=None,
        metavar="N",
        help="score the best whole results within N characters instead of the top k",
    )
    args = p.parse_args(argv)
    if args.max_chars is not None and args.max_chars < 1:
        p.error("--max-chars must be at least 1")
    text, _ = run(args.corpus, args.k, args.max_pages, args.only, args.modes, args.max_chars)
    print(text)
    if args.write:
        write_doc(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
