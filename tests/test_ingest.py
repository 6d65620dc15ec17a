"""Incremental ingestion: records, change detection, the embedding cache, atomicity, locking, bad files."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag import Document, Pipeline
from sectionrag.errors import ConfigError, IngestError
from sectionrag.ingest.fingerprint import config_changes, describe, pipeline_config
from sectionrag.protocols import IncrementalStore
from sectionrag.stores import LanceDBStore
from sectionrag.testing import HashEmbedder, InMemoryStore

DATA = Path(__file__).parent / "data" / "pdf"

TEXTS = {
    "alpha.md": "# Alpha\n\nAlpha talks about apples.\n\n## Harvest\n\nApples are picked in May.\n",
    "beta.md": "# Beta\n\nBeta is about bicycles and their gears.\n\nGears are oiled every month.\n",
    "gamma.txt": "Gamma notes.\n\nThe gamma ray burst was observed at night.\n\nTelescopes recorded it.\n",
    "delta.md": "# Delta\n\nRivers form deltas where they meet the sea.\n",
}


class CountingParser:
    """Counts parse calls (a private counter: public attributes would be part of the fingerprint)."""

    def __init__(self) -> None:
        self._calls = 0

    @property
    def calls(self) -> int:
        return self._calls

    def parse(self, source: Any, *, name: str | None = None) -> Document:
        self._calls += 1
        return sectionrag.parse(source)


def _folder(root: Path, texts: dict[str, str] = TEXTS) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _age(path: Path, seconds: float = 60.0) -> None:
    """Move a file's mtime into the past, so its record is not racy and stat alone can vouch for it."""
    past = time.time() - seconds
    os.utime(path, (past, past))


def _pipe(store: Any, emb: HashEmbedder, *, size: int = 64, parser: Any = None) -> Pipeline:
    return Pipeline(
        parser=parser, chunker=sectionrag.chunker("paragraph", size=size), embedder=emb, store=store
    )


def _chunks_by_source(store: LanceDBStore) -> dict[str, list[tuple[int, str, str]]]:
    table = store._open()
    assert table is not None
    rows = table.search().select(["source", "doc_id", "index", "text"]).limit(None).to_arrow().to_pylist()
    out: dict[str, list[tuple[int, str, str]]] = {}
    for r in rows:
        out.setdefault(Path(r["source"]).name, []).append((r["index"], r["doc_id"], r["text"]))
    return {k: sorted(v) for k, v in out.items()}


@pytest.fixture(params=["lancedb", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "lancedb":
        return LanceDBStore(tmp_path / "db")
    return InMemoryStore()


# -- incremental sync ------------------------------------------------------------------------


def test_unchanged_rerun_parses_and_embeds_nothing(tmp_path: Path, store: Any) -> None:
    docs = _folder(tmp_path / "docs")
    emb, parser = HashEmbedder(), CountingParser()
    first = _pipe(store, emb, parser=parser).ingest([docs])
    assert sorted(Path(s).name for s in first.added) == sorted(TEXTS) and first.ok
    assert parser.calls == 4 and first.embedded == first.chunks > 0
    calls, parsed = emb.calls, parser.calls

    again = _pipe(store, emb, parser=parser).ingest([docs])
    assert sorted(Path(s).name for s in again.unchanged) == sorted(TEXTS)
    assert not (again.added or again.updated or again.deleted or again.failed) and again.chunks == 0
    assert emb.calls == calls and parser.calls == parsed  # nothing embedded, nothing parsed


def test_stat_fast_path_reads_nothing_and_touch_keeps_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _folder(tmp_path / "docs")
    for f in docs.iterdir():
        _age(f)
    store, emb = LanceDBStore(tmp_path / "db"), HashEmbedder()
    _pipe(store, emb).ingest([docs])

    import sectionrag.ingest.prepare as prepare

    reads: list[Path] = []
    real_read = prepare.read_file
    monkeypatch.setattr(prepare, "read_file", lambda p, st: (reads.append(p), real_read(p, st))[1])
    assert len(_pipe(store, emb).ingest([docs]).unchanged) == 4
    assert reads == []  # size and mtime vouched for every file

    os.utime(docs / "beta.md")  # touched: new mtime, same bytes
    touched = _pipe(store, emb).ingest([docs])
    assert len(touched.unchanged) == 4 and [p.name for p in reads] == ["beta.md"]
    rec = {Path(r.source).name: r for r in store.read_records()}["beta.md"]
    assert rec.mtime_ns == (docs / "beta.md").stat().st_mtime_ns  # the record learnt the new mtime

    reads.clear()
    verified = _pipe(store, emb).ingest([docs], verify=True)
    assert len(verified.unchanged) == 4 and len(reads) == 4  # verify=True hashes everything


def test_editing_one_file_reindexes_only_it(tmp_path: Path, store: Any) -> None:
    docs = _folder(tmp_path / "docs")
    emb = HashEmbedder()
    _pipe(store, emb).ingest([docs])
    before = emb.texts_embedded
    (docs / "beta.md").write_text(TEXTS["beta.md"].replace("every month", "every week"), encoding="utf-8")
    report = _pipe(store, emb).ingest([docs])
    assert [Path(s).name for s in report.updated] == ["beta.md"] and len(report.unchanged) == 3
    assert emb.texts_embedded - before == 1 == report.embedded  # the unchanged paragraph came from the cache
    assert report.cached == report.chunks - 1
    hits = _pipe(store, emb).search("gears oiled every week", k=1)
    assert hits[0].text == "Gears are oiled every week." and Path(hits[0].source).name == "beta.md"
    assert {Path(d.source).name for d in store.documents()} == set(TEXTS)
    assert len(store.documents()) == 4


def test_sync_deletes_gone_sources_and_their_records(tmp_path: Path, store: Any) -> None:
    docs = _folder(tmp_path / "docs")
    emb = HashEmbedder()
    _pipe(store, emb).ingest([docs])
    (docs / "gamma.txt").unlink()
    kept = _pipe(store, emb).ingest([docs])  # without sync nothing is deleted
    assert not kept.deleted and len(store.documents()) == 4
    report = _pipe(store, emb).ingest([docs], sync=True)
    assert [Path(s).name for s in report.deleted] == ["gamma.txt"] and len(report.unchanged) == 3
    assert {Path(d.source).name for d in store.documents()} == {"alpha.md", "beta.md", "delta.md"}
    assert {Path(r.source).name for r in store.read_records()} == {"alpha.md", "beta.md", "delta.md"}
    assert _pipe(store, emb).search("gamma ray telescopes", k=10)[0].source != str(docs / "gamma.txt")


def test_changing_chunk_size_reindexes_all_and_says_why(tmp_path: Path, store: Any) -> None:
    docs = _folder(tmp_path / "docs")
    emb = HashEmbedder()
    _pipe(store, emb, size=64).ingest([docs])
    refused = r"4 source\(s\).*other settings.*chunker.size: 64 -> 8.*rechunk=True"
    with pytest.raises(ConfigError, match=refused):
        _pipe(store, emb, size=8).ingest([docs])  # refused before anything is written
    assert len(_pipe(store, emb, size=64).ingest([docs]).unchanged) == 4
    report = _pipe(store, emb, size=8).ingest([docs], rechunk=True)
    assert len(report.updated) == 4 and sorted(report.reconfigured) == sorted(report.updated)
    assert report.config_changes == ["chunker.size: 64 -> 8"]
    assert "re-indexed for a new configuration" in report.summary()
    same = _pipe(store, emb, size=8).ingest([docs])
    assert len(same.unchanged) == 4 and not same.reconfigured
    back = _pipe(store, emb, size=64).ingest([docs], rechunk=True)
    assert back.embedded == 0 and back.cached == back.chunks > 0  # every text was embedded before


def test_embedding_cache_is_shared_by_the_collections_of_a_database(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    emb = HashEmbedder()
    _pipe(LanceDBStore(tmp_path / "db", collection="one"), emb).ingest([docs])
    embedded = emb.texts_embedded
    other = LanceDBStore(tmp_path / "db", collection="two")
    report = _pipe(other, emb).ingest([docs])
    assert len(report.added) == 4 and report.embedded == 0 and emb.texts_embedded == embedded
    assert other.collections() == ["one", "two"]  # internal tables stay hidden


def test_documents_in_memory_are_tracked_by_content(store: Any) -> None:
    emb = HashEmbedder()
    doc = Document.create("Invoices are due in thirty days.\n\nLate invoices cost a fee.", source="terms")
    assert _pipe(store, emb).ingest([doc]).added == ["terms"]
    assert _pipe(store, emb).ingest([doc]).unchanged == ["terms"]
    tagged = Document.create(doc.text, source="terms", metadata={"lang": "en"})
    assert _pipe(store, emb).ingest([tagged]).updated == ["terms"]  # metadata is part of the content
    twice = _pipe(store, emb).ingest([tagged, tagged])
    assert twice.unchanged == ["terms"] and "given twice" in twice.failed[0].error


def test_identical_files_keep_separate_chunks(tmp_path: Path, store: Any) -> None:
    docs = _folder(tmp_path / "docs", {"a.md": TEXTS["beta.md"], "b.md": TEXTS["beta.md"]})
    emb = HashEmbedder()
    report = _pipe(store, emb).ingest([docs])
    assert len(report.added) == 2 and report.ok
    held = store.documents()
    assert len(held) == 2 and held[0].doc_id != held[1].doc_id and held[0].chunks == held[1].chunks
    assert len(_pipe(store, emb).ingest([docs]).unchanged) == 2
    (docs / "a.md").unlink()
    assert [Path(s).name for s in _pipe(store, emb).ingest([docs], sync=True).deleted] == ["a.md"]
    assert [Path(d.source).name for d in store.documents()] == ["b.md"]


def test_record_that_disagrees_with_the_collection_is_repaired(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    store, emb = LanceDBStore(tmp_path / "db"), HashEmbedder()
    _pipe(store, emb).ingest([docs])
    victim = next(d for d in store.documents() if d.source.endswith("alpha.md"))
    store.delete(victim.doc_id)  # chunks gone behind the pipeline's back; the record remains
    report = _pipe(store, emb).ingest([docs])
    assert [Path(s).name for s in report.updated] == ["alpha.md"] and report.embedded == 0
    assert any(d.source.endswith("alpha.md") for d in store.documents())


def test_config_description_is_stable_and_redacts_secrets() -> None:
    from sectionrag.parsers.pdf import PdfParser

    emb = HashEmbedder()
    chunker = sectionrag.chunker("section", inner="recursive", size=96, tokenizer=emb)
    config = pipeline_config(PdfParser(password="hunter2"), chunker, None, emb)
    assert config["chunker"]["size"] == 96 and config["chunker"]["inner"] == "recursive"
    assert "password" not in config["parser"] and "hunter2" not in json.dumps(config)
    assert pipeline_config(PdfParser(), chunker, None, emb) == config  # a password is no new configuration
    emb.embed_documents(["counters move"])  # counters are not configuration
    assert pipeline_config(PdfParser(password="hunter2"), chunker, None, emb) == config
    semantic = sectionrag.chunker("semantic", size=128)
    assert describe(semantic)["embedder"] is None  # as given, not the lazily loaded default
    assert config_changes("not json", config) == ["configuration not recorded"]


def test_protocol_only_store_still_works() -> None:
    class Plain:
        """Only the VectorStore methods, delegated (defined on the class: ``isinstance`` on a
        protocol looks members up statically, as Python 3.12 does, so ``__getattr__`` would not count)."""

        def __init__(self) -> None:
            self.inner = InMemoryStore()

        def ensure_collection(self, *args: Any, **kwargs: Any) -> Any:
            return self.inner.ensure_collection(*args, **kwargs)

        def info(self) -> Any:
            return self.inner.info()

        def add(self, *args: Any, **kwargs: Any) -> Any:
            return self.inner.add(*args, **kwargs)

        def delete(self, *args: Any, **kwargs: Any) -> Any:
            return self.inner.delete(*args, **kwargs)

        def search(self, *args: Any, **kwargs: Any) -> Any:
            return self.inner.search(*args, **kwargs)

        def documents(self) -> Any:
            return self.inner.documents()

    plain = Plain()
    assert not isinstance(plain, IncrementalStore)
    emb = HashEmbedder()
    doc = Document.create("One paragraph.\n\nAnother paragraph.", source="d")
    assert _pipe(plain, emb).ingest([doc]).added == ["d"]
    assert _pipe(plain, emb).ingest([doc]).unchanged == ["d"]
    edited = Document.create("One paragraph.\n\nA changed paragraph.", source="d")
    assert _pipe(plain, emb).ingest([edited]).updated == ["d"]
    assert [c.text for c in plain.inner.chunks()] == ["One paragraph.", "A changed paragraph."]


# -- bad files -------------------------------------------------------------------------------


def test_a_broken_file_of_each_kind_is_reported_and_the_rest_indexed(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    (docs / "empty.md").write_text("", encoding="utf-8")
    (docs / "blank.txt").write_text("  \n\n \n", encoding="utf-8")
    (docs / "corrupt.pdf").write_bytes(b"%PDF-1.7\n1 0 obj garbage, no xref, no trailer")
    shutil.copy(DATA / "encrypted.pdf", docs / "encrypted.pdf")
    (docs / "dangling.md").symlink_to(docs / "no-such-target.md")  # unreadable: a broken link
    os.mkfifo(docs / "pipe.md")  # opening it would block: skipped with a warning, never opened
    (docs / "zipped.txt").write_bytes(b"PK\x03\x04" + bytes(range(256)))  # binary under a text name
    store, emb = LanceDBStore(tmp_path / "db"), HashEmbedder()
    report = _pipe(store, emb).ingest([docs])
    failed = {Path(f.source).name: f.error for f in report.failed}
    assert set(failed) == {
        "empty.md",
        "blank.txt",
        "corrupt.pdf",
        "encrypted.pdf",
        "dangling.md",
        "zipped.txt",
    }
    warned = {Path(w.source).name: w.message for w in report.warnings}
    assert "not a regular file (a FIFO)" in warned["pipe.md"]
    assert "encrypted" in failed["encrypted.pdf"] and "password" in failed["encrypted.pdf"]
    assert "broken symbolic link" in failed["dangling.md"]
    assert "empty" in failed["empty.md"].lower()
    assert sorted(Path(s).name for s in report.added) == sorted(TEXTS) and not report.ok
    assert len(store.documents()) == 4
    again = _pipe(store, emb).ingest([docs], sync=True)
    assert len(again.failed) == 6 and len(again.unchanged) == 4 and not again.deleted


def test_a_file_that_breaks_keeps_its_old_chunks(tmp_path: Path, store: Any) -> None:
    docs = _folder(tmp_path / "docs")
    emb = HashEmbedder()
    _pipe(store, emb).ingest([docs])
    before = {d.source: d for d in store.documents()}
    (docs / "delta.md").write_text("", encoding="utf-8")
    report = _pipe(store, emb).ingest([docs], sync=True)
    assert [Path(f.source).name for f in report.failed] == ["delta.md"] and not report.deleted
    assert {d.source: d for d in store.documents()} == before


# -- atomicity and concurrency ---------------------------------------------------------------


class SlowEmbedder(HashEmbedder):
    """Sleeps in every embedding call, so an ingest lasts long enough to be overlapped."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self._delay = delay

    def embed_documents(self, texts: Any) -> Any:
        time.sleep(self._delay)
        return super().embed_documents(texts)


def _versions(n: int, version: int) -> dict[str, str]:
    return {
        f"doc{i:02d}.md": "".join(
            f"# Part {j}\n\nVersion {version} of document {i}, part {j}: "
            + "words " * (3 + version + j)
            + "\n\n"
            for j in range(2 + (i + version) % 3)
        )
        for i in range(n)
    }


def test_readers_never_see_a_document_half_replaced(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    store = LanceDBStore(tmp_path / "db")
    emb = HashEmbedder()
    expected: dict[str, dict[str, list[str]]] = {}
    for version in (0, 1):
        for name, text in _versions(12, version).items():
            doc = sectionrag.parse(_folder(tmp_path / f"v{version}", {name: text}) / name)
            expected.setdefault(name, {})[doc.id] = [c.text for c in _pipe(store, emb).chunker.chunk(doc)]
    _folder(docs, _versions(12, 0))
    _pipe(store, emb).ingest([docs])

    problems: list[str] = []
    snapshots = 0
    done = threading.Event()

    def read() -> None:
        nonlocal snapshots
        reader = LanceDBStore(tmp_path / "db")
        while not done.is_set():
            for name, rows in _chunks_by_source(reader).items():
                doc_ids = {doc_id for _, doc_id, _ in rows}
                texts = [t for _, _, t in rows]
                if len(doc_ids) != 1 or texts != expected[name].get(doc_ids.pop(), None):
                    problems.append(f"{name}: {rows}")
            snapshots += 1

    thread = threading.Thread(target=read)
    thread.start()
    try:
        for version in (1, 0, 1):
            _folder(docs, _versions(12, version))
            pipe = _pipe(store, SlowEmbedder(0.01))
            pipe.batch_size = 2
            rechunk = True  # the first run's embedder was a HashEmbedder, not a SlowEmbedder
            import sectionrag.ingest.runner as runner

            flush_min, runner._FLUSH_MIN = runner._FLUSH_MIN, 4  # many small commits
            try:
                assert len(pipe.ingest([docs], rechunk=rechunk).updated) == 12
            finally:
                runner._FLUSH_MIN = flush_min
    finally:
        done.set()
        thread.join()
    assert snapshots > 3 and problems == []


def test_two_ingests_at_once_one_fails_clearly_nothing_lost(tmp_path: Path) -> None:
    docs_a = _folder(tmp_path / "a", {"a1.md": TEXTS["alpha.md"], "a2.md": TEXTS["beta.md"]})
    docs_b = _folder(tmp_path / "b", {"b1.md": TEXTS["delta.md"]})
    errors: list[BaseException] = []
    started = threading.Event()

    class Signalling(SlowEmbedder):
        def embed_documents(self, texts: Any) -> Any:
            started.set()
            return super().embed_documents(texts)

    def first() -> None:
        try:
            _pipe(LanceDBStore(tmp_path / "db"), Signalling(0.5)).ingest([docs_a])
        except BaseException as e:
            errors.append(e)

    thread = threading.Thread(target=first)
    thread.start()
    assert started.wait(30)
    with pytest.raises(IngestError, match=r"another ingest is writing to collection 'default'.*pid \d+"):
        _pipe(LanceDBStore(tmp_path / "db"), HashEmbedder()).ingest([docs_b])
    thread.join()
    assert errors == []
    store = LanceDBStore(tmp_path / "db")
    assert {Path(d.source).name for d in store.documents()} == {"a1.md", "a2.md"}
    # the collection was built by a Signalling embedder (same name, another class): a new configuration
    assert _pipe(store, HashEmbedder()).ingest([docs_b], rechunk=True).added == [str(docs_b / "b1.md")]
    assert {Path(d.source).name for d in store.documents()} == {"a1.md", "a2.md", "b1.md"}


def test_two_ingests_with_a_wait_both_succeed(tmp_path: Path) -> None:
    folders = [_folder(tmp_path / f"f{i}", {f"{i}-{k}": v for k, v in TEXTS.items()}) for i in range(2)]
    reports: list[Any] = []
    errors: list[BaseException] = []

    def run(folder: Path) -> None:
        try:
            pipe = _pipe(LanceDBStore(tmp_path / "db"), SlowEmbedder(0.05))
            reports.append(pipe.ingest([folder], lock_timeout=60))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(f,)) for f in folders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and [len(r.added) for r in reports] == [4, 4]
    assert len(LanceDBStore(tmp_path / "db").documents()) == 8


def test_report_times_every_stage(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    report = _pipe(LanceDBStore(tmp_path / "db"), HashEmbedder()).ingest([docs])
    assert {"scan", "parse", "chunk", "embed", "cache", "store", "records", "total"} <= set(report.seconds)
    assert all(v >= 0 for v in report.seconds.values())
    assert report.timings().endswith(" s") and "embed" in report.timings()


def test_bad_arguments() -> None:
    pipe = _pipe(InMemoryStore(), HashEmbedder())
    with pytest.raises(sectionrag.ConfigError, match="lock_timeout"):
        pipe.ingest([], lock_timeout=-1)
    with pytest.raises(TypeError, match="paths or Documents"):
        pipe.ingest([42])  # type: ignore[list-item]


# -- parsing ahead or in turn ----------------------------------------------------------------


class ExplodingChunker:
    """A chunker with a bug: it raises a plain RuntimeError on the second document."""

    def __init__(self) -> None:
        self._seen = 0

    def chunk(self, document: Document) -> list[Any]:
        self._seen += 1
        if self._seen == 2:
            raise RuntimeError("chunker bug")
        return sectionrag.chunker("paragraph", size=64).chunk(document)


@pytest.mark.parametrize("ahead", [True, False])
def test_parsing_ahead_or_in_turn_gives_the_same_index(tmp_path: Path, ahead: bool) -> None:
    docs = _folder(tmp_path / "docs")
    store = LanceDBStore(tmp_path / "db")
    report = _pipe(store, HashEmbedder()).ingest([docs], parse_ahead=ahead)
    assert len(report.added) == 4 and report.seconds["parse"] > 0
    reference = InMemoryStore()
    _pipe(reference, HashEmbedder()).ingest([docs], parse_ahead=not ahead)
    assert store.documents() == reference.documents()

    broken = Pipeline(chunker=ExplodingChunker(), embedder=HashEmbedder(), store=store)
    (docs / "alpha.md").write_text("# Alpha\n\nNew text.\n", encoding="utf-8")
    (docs / "beta.md").write_text("# Beta\n\nNew text too.\n", encoding="utf-8")
    report = broken.ingest([docs], parse_ahead=ahead, rechunk=True)  # the bug fails one source only
    assert [(Path(f.source).name, f.error) for f in report.failed] == [
        ("beta.md", "RuntimeError while chunking: chunker bug")
    ]
    assert len(report.updated) == 3
    after = _pipe(store, HashEmbedder()).ingest([docs], parse_ahead=ahead, rechunk=True)
    assert len(after.updated) == 4 and after.ok


def test_parse_ahead_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from sectionrag.ingest.runner import parse_ahead_default

    emb = HashEmbedder()
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert parse_ahead_default(emb) is False
    emb.device = "cuda:0"  # type: ignore[attr-defined]
    assert parse_ahead_default(emb) is True
    emb.device = "cpu"  # type: ignore[attr-defined]
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert parse_ahead_default(emb) is True
