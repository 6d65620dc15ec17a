"""Hostile and careless inputs at the ingest, pipeline and command-line level.

Each test is one kind of input: what a run does with it now (a source fails
alone, a warning, a refusal before anything is written), checked through the
command line where a user meets it.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sectionrag
from sectionrag import Document, Pipeline
from sectionrag.cli import main
from sectionrag.errors import ConfigError, StoreError
from sectionrag.ingest.sources import (
    display_source,
    escape_source,
    read_file,
    scan_paths,
    source_matches_name,
    source_os_name,
)
from sectionrag.parsers import AutoParser
from sectionrag.stores import LanceDBStore
from sectionrag.testing import HashEmbedder, InMemoryStore
from sectionrag.types import Chunk

TEXTS = {
    "alpha.md": "# Alpha\n\nAlpha talks about apples.\n\nApples are picked in May.\n",
    "beta.md": "# Beta\n\nBeta is about bicycles and their gears.\n",
    "gamma.txt": "Gamma notes.\n\nThe gamma ray burst was observed at night.\n",
}


def _folder(root: Path, texts: dict[str, str] = TEXTS) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _pipe(store: Any, *, chunker: Any = None) -> Pipeline:
    return Pipeline(
        chunker=chunker or sectionrag.chunker("paragraph", size=64), embedder=HashEmbedder(), store=store
    )


def _names(sources: list[str]) -> list[str]:
    return sorted(Path(source_os_name(s)).name for s in sources)


@pytest.fixture
def cli(clean_registry: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    """Run ``sectionrag`` in this process from ``tmp_path`` with a ``hash`` embedder registered."""
    from sectionrag import registry

    registry.register("embedder", "hash", HashEmbedder)
    monkeypatch.chdir(tmp_path)

    def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    yield run


# -- one bad input never stops a run -----------------------------------------------------------


class Hostile(Exception):
    """Stands for any bug: not a SectionRagError, not an OSError."""


_RAISES: dict[str, BaseException] = {
    "value.md": ValueError("Exceeds the limit (4300 digits) for integer string conversion"),
    "recursion.md": RecursionError("maximum recursion depth exceeded"),
    "unicode.md": UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
    "memory.md": MemoryError(),
    "bug.md": Hostile("a plug-in's bug\nwith a second line"),
}


@pytest.fixture
def hostile_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the automatic parser raise, for the files named in ``_RAISES``, what is named there."""
    real = AutoParser.parse

    def parse(self: AutoParser, source: Any, *, name: str | None = None) -> Document:
        for file, error in _RAISES.items():
            if str(name or source).endswith(file):
                raise error
        return real(self, source, name=name)

    monkeypatch.setattr(AutoParser, "parse", parse)


def test_any_exception_fails_its_source_only_and_sync_still_runs(
    tmp_path: Path, hostile_parser: None, caplog: pytest.LogCaptureFixture
) -> None:
    docs = _folder(tmp_path / "docs")
    store = LanceDBStore(tmp_path / "db")
    assert len(_pipe(store).ingest(docs).added) == 3
    for name in _RAISES:
        (docs / name).write_text("# Hostile\n\nText.\n", encoding="utf-8")
    (docs / "beta.md").write_text("# Beta\n\nBeta rides a new bicycle.\n", encoding="utf-8")  # an edit
    (docs / "gamma.txt").unlink()  # a deletion

    with caplog.at_level(logging.DEBUG, logger="sectionrag.ingest"):
        report = _pipe(store).ingest(docs, sync=True)
    failed = {Path(f.source).name: f.error for f in report.failed}
    assert failed == {
        "value.md": "ValueError while parsing: Exceeds the limit (4300 digits) for integer string conversion",
        "recursion.md": "RecursionError while parsing: maximum recursion depth exceeded",
        "unicode.md": "UnicodeDecodeError while parsing: 'utf-8' codec can't decode byte 0xff in position 0: "
        "invalid start byte",
        "memory.md": "MemoryError while parsing",
        "bug.md": "Hostile while parsing: a plug-in's bug with a second line",  # one line
    }
    assert _names(report.updated) == ["beta.md"] and _names(report.deleted) == ["gamma.txt"]
    assert _names([d.source for d in store.documents()]) == ["alpha.md", "beta.md"]
    tracebacks = [r for r in caplog.records if r.levelno == logging.DEBUG and r.exc_info]
    assert len(tracebacks) == 5  # the traceback of each, at debug level


def test_a_bug_in_a_chunker_or_enricher_fails_its_source_only(tmp_path: Path) -> None:
    class Chunky:
        def chunk(self, document: Document) -> list[Any]:
            if "bicycles" in document.text:
                raise KeyError("section")
            if "gamma" in document.text:
                return ["not a chunk"]
            return sectionrag.chunker("paragraph", size=64).chunk(document)

    class Rich:
        def enrich(self, chunks: Any, document: Document) -> list[Chunk]:
            if "apples" in document.text:
                raise ZeroDivisionError("division by zero")
            return list(chunks)

    docs = _folder(tmp_path / "docs", {**TEXTS, "delta.md": "# Delta\n\nRivers meet the sea.\n"})
    pipe = Pipeline(chunker=Chunky(), enricher=Rich(), embedder=HashEmbedder(), store=InMemoryStore())
    report = pipe.ingest([docs])
    assert {Path(f.source).name: f.error for f in report.failed} == {
        "alpha.md": "ZeroDivisionError while enriching: division by zero",
        "beta.md": "KeyError while chunking: 'section'",
        "gamma.txt": "TypeError while chunking: the chunker returned a str among its chunks, not a Chunk",
    }
    assert _names(report.added) == ["delta.md"]


def test_cli_a_failing_file_exits_1_the_others_are_indexed(
    tmp_path: Path, cli: Any, hostile_parser: None, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = _folder(tmp_path / "docs")
    (docs / "value.md").write_text("---\nbig: 1\n---\n# V\n\nText.\n", encoding="utf-8")
    code, out, err = cli(
        "index", "docs", "--db", "db", "--embedder", "hash", "--sync", "--json", capsys=capsys
    )
    report = json.loads(out)
    assert code == 1 and report["added"] == 3
    assert report["failed"] == [
        {
            "source": "docs/value.md",
            "error": "ValueError while parsing: Exceeds the limit (4300 digits) for integer string "
            "conversion",
        }
    ]
    assert "1 source(s) failed" in err and "Traceback" not in err
    (docs / "gamma.txt").unlink()
    code, out, err = cli("index", "docs", "--db", "db", "--sync", capsys=capsys)
    assert code == 1 and "1 deleted, 1 failed" in out  # the deletion is not skipped
    assert "failed: docs/value.md: ValueError while parsing" in err


def test_real_front_matter_that_once_stopped_a_run(tmp_path: Path) -> None:
    """A 5,000-digit number and 3,000 nested lists in front matter: the other files are indexed anyway."""
    docs = _folder(tmp_path / "docs")
    (docs / "digits.md").write_text(f"---\nn: {'7' * 5000}\n---\n# D\n\nDigits.\n", encoding="utf-8")
    nested = "[" * 3000 + "]" * 3000
    (docs / "nested.md").write_text(f"---\ntags: {nested}\n---\n# N\n\nNested.\n", encoding="utf-8")
    report = _pipe(InMemoryStore()).ingest(docs, sync=True)
    assert {"alpha.md", "beta.md", "gamma.txt"} <= set(_names(report.added))
    assert len(report.added) + len(report.failed) == 5
    assert all("\n" not in f.error for f in report.failed)


# -- file names kept losslessly ----------------------------------------------------------------

BAD = b"bad\xffname.md"


def test_non_utf8_file_name_is_indexed_searchable_and_deleted(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = _folder(tmp_path / "docs")
    with open(os.path.join(os.fsencode(docs), BAD), "wb") as f:
        f.write(b"# Bananas\n\nBananas are yellow and curved.\n")
    code, out, err = cli(
        "index", "docs", "--db", "db", "--embedder", "hash", "--sync", "--json", capsys=capsys
    )
    assert code == 0 and json.loads(out)["added"] == 4, err

    stored = next(d.source for d in LanceDBStore(tmp_path / "db").documents() if "name.md" in d.source)
    assert stored == "bytes:" + str(tmp_path / "docs" / "bad\\xffname.md")  # escaped, reversibly
    assert os.fsencode(source_os_name(stored)) == os.path.join(os.fsencode(docs), BAD)

    raw = os.fsdecode(BAD)  # what the shell hands over for the raw bytes
    for name in (raw, "bad\\xffname.md", "docs/bad\\xffname.md"):
        code, out, err = cli(
            "search", "bananas", "--db", "db", "--mode", "text", "--source", name, "--json", capsys=capsys
        )
        results = json.loads(out)["results"]
        assert code == 0 and [r["source"] for r in results] == ["docs/bad\\xffname.md"], (name, err)
    code, out, _ = cli("search", "bananas", "--db", "db", "-k", "1", capsys=capsys)
    assert code == 0 and "docs/bad\\xffname.md" in out

    code, out, _ = cli("index", "docs", "--db", "db", "--sync", "--json", capsys=capsys)
    assert code == 0 and json.loads(out)["unchanged"] == 4
    os.unlink(os.path.join(os.fsencode(docs), BAD))
    code, out, _ = cli("index", "docs", "--db", "db", "--sync", "--json", capsys=capsys)
    assert code == 0 and json.loads(out)["deleted"] == 1


@given(
    st.text(
        alphabet=st.characters(codec="utf-8") | st.sampled_from(["\\", "x", "\udcff", "\udc80", "\ud800"])
    )
)
def test_escaping_a_source_name_is_reversible(name: str) -> None:
    for candidate in (name, "bytes:" + name, "/" + name):
        stored = escape_source(candidate)
        assert source_os_name(stored) == candidate
        stored.encode("utf-8")  # always storable
        if stored != candidate:
            assert stored.startswith("bytes:")


# -- one identity per file ---------------------------------------------------------------------


def test_one_folder_named_two_ways_is_one_set_of_documents(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path / "docs")
    code, out, _ = cli("index", "docs", "--db", "db", "--embedder", "hash", "--json", capsys=capsys)
    assert code == 0 and json.loads(out)["added"] == 3
    for spelling in (str(tmp_path / "docs"), "./docs/", "docs/../docs"):
        code, out, _ = cli("index", spelling, "--db", "db", "--json", capsys=capsys)
        assert code == 0 and json.loads(out)["unchanged"] == 3, spelling
    os.symlink(tmp_path / "docs", tmp_path / "link")
    code, out, _ = cli("index", "link", "--db", "db", "--json", capsys=capsys)
    assert code == 0 and json.loads(out)["unchanged"] == 3
    sources = sorted(d.source for d in LanceDBStore(tmp_path / "db").documents())
    assert sources == sorted(str(tmp_path / "docs" / n) for n in TEXTS)  # absolute, once each

    code, out, _ = cli("search", "gamma ray burst", "--db", "db", "--json", "-k", "10", capsys=capsys)
    results = json.loads(out)["results"]
    assert len(results) == len({(r["source"], r["start"]) for r in results})  # no hit twice
    assert {r["source"] for r in results} <= {f"docs/{n}" for n in TEXTS}  # shown relative to the cwd


def test_overlapping_and_repeated_paths_give_each_file_once(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    store = InMemoryStore()
    report = _pipe(store).ingest([docs, str(docs), docs / "alpha.md", tmp_path / "docs" / ".." / "docs"])
    assert report.ok and _names(report.added) == sorted(TEXTS)
    assert len(store.documents()) == 3


def test_collections_recorded_with_relative_paths_are_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sectionrag.ingest.runner as runner

    docs = _folder(tmp_path / "docs")
    monkeypatch.chdir(tmp_path)
    store = LanceDBStore(tmp_path / "db")
    emb = HashEmbedder()
    pipe = Pipeline(chunker=sectionrag.chunker("paragraph", size=64), embedder=emb, store=store)
    with monkeypatch.context() as m:  # what versions before this one recorded: the path as given
        m.setattr(runner, "source_name", lambda path: str(path))
        runner.run_ingest(pipe.stages(), [Path("docs") / n for n in sorted(TEXTS)])
    assert sorted(d.source for d in store.documents()) == [f"docs/{n}" for n in sorted(TEXTS)]
    embedded = emb.texts_embedded

    report = pipe.ingest(["docs"])
    assert _names(report.updated) == sorted(TEXTS) and not report.added and report.ok
    assert emb.texts_embedded == embedded  # vectors from the cache
    absolute = sorted(str(docs / n) for n in TEXTS)
    assert sorted(d.source for d in store.documents()) == absolute
    assert sorted(r.source for r in store.read_records()) == absolute
    assert len(pipe.ingest(["docs"], sync=True).unchanged) == 3


def test_display_and_matching_of_sources() -> None:
    assert display_source("/home/me/docs/a.md", "/home/me") == "docs/a.md"
    assert display_source("/srv/a.md", "/home/me") == "/srv/a.md"
    assert display_source("terms", "/home/me") == "terms"  # a Document's name
    for name in ("a.md", "docs/a.md", "./docs/a.md", "/home/me/docs/a.md"):
        assert source_matches_name("/home/me/docs/a.md", name, "/home/me"), name
    assert source_matches_name("/home/me/docs/a.md", "../docs/a.md", "/home/me/other")
    assert not source_matches_name("/home/me/docs/a.md", "s/a.md", "/home/me")


# -- a single path -----------------------------------------------------------------------------


def test_a_single_path_or_document_is_one_source(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    store = InMemoryStore()
    assert _names(_pipe(store).ingest(str(docs)).added) == sorted(TEXTS)
    assert len(_pipe(store).ingest(docs).unchanged) == 3
    assert len(_pipe(store).ingest(docs / "beta.md").unchanged) == 1
    assert _pipe(store).ingest(Document.create("In memory.", source="note")).added == ["note"]
    with pytest.raises(TypeError, match="sources must be"):
        _pipe(store).ingest(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"sources must be paths or Documents, not int"):
        _pipe(store).ingest([docs, 42])  # type: ignore[list-item]


# -- stay inside what the user named -----------------------------------------------------------


def test_links_leaving_the_folder_are_not_followed_unless_asked(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = _folder(tmp_path / "docs")
    outside = _folder(tmp_path / "outside", {"secret.txt": "The outside secret is plum.\n"})
    (docs / "leak.txt").symlink_to(outside / "secret.txt")
    (docs / "sub").symlink_to(outside, target_is_directory=True)
    (docs / "inside.md").symlink_to(docs / "alpha.md")  # a link within the folder: the same file
    code, out, _ = cli("index", "docs", "--db", "db", "--embedder", "hash", "--json", capsys=capsys)
    report = json.loads(out)
    assert code == 0 and report["added"] == 3 and report["failed"] == []
    warned = {w["source"]: w["message"] for w in report["warnings"]}
    assert set(warned) == {"docs/leak.txt", "docs/sub"}
    assert all("outside the folders named; not followed" in m for m in warned.values())
    code, out, _ = cli("search", "plum", "--db", "db", "--mode", "text", "--json", capsys=capsys)
    assert all("secret" not in r["source"] for r in json.loads(out)["results"])

    code, out, _ = cli("index", "docs", "--db", "db", "--follow-symlinks", "--json", capsys=capsys)
    report = json.loads(out)
    assert code == 0 and report["added"] == 1 and report["warnings"] == []  # one file: secret.txt
    code, out, _ = cli("search", "plum", "--db", "db", "--mode", "text", "--json", capsys=capsys)
    assert [r["source"] for r in json.loads(out)["results"]] == ["outside/secret.txt"]


def test_link_loops_end(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    (docs / "self").symlink_to(docs, target_is_directory=True)
    (docs / "nested").mkdir()
    (docs / "nested" / "up").symlink_to(tmp_path, target_is_directory=True)  # outside: the parent
    (docs / "a-loop.md").symlink_to(docs / "b-loop.md")
    (docs / "b-loop.md").symlink_to(docs / "a-loop.md")
    result: list[Any] = []
    for follow in (False, True):
        worker = threading.Thread(
            target=lambda f=follow: result.append(scan_paths([docs], follow_symlinks=f))
        )
        worker.start()
        worker.join(30)
        assert not worker.is_alive(), "walking a link loop did not end"
    plain, followed = result
    assert sorted(p.name for p in plain.files) == [
        "a-loop.md",
        "alpha.md",
        "b-loop.md",
        "beta.md",
        "gamma.txt",
    ]
    assert {p.name for p in followed.files} >= {"alpha.md", "a-loop.md"}
    report = _pipe(InMemoryStore()).ingest(docs)
    errors = {Path(f.source).name: f.error for f in report.failed}
    assert (
        set(errors) == {"a-loop.md", "b-loop.md"}
        and "Too many levels of symbolic links" in errors["a-loop.md"]
    )


def test_special_files_in_a_folder_are_skipped_with_a_note(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    os.mkfifo(docs / "pipe.md")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(docs / "sock.txt"))
        (docs / "dev.md").symlink_to("/dev/null")  # a device, through a link inside the folder
        scan = scan_paths(docs, follow_symlinks=True)
        notes = {Path(w.source).name: w.message for w in scan.skipped}
        assert notes == {
            "pipe.md": "not a regular file (a FIFO); skipped without being opened",
            "sock.txt": "not a regular file (a socket); skipped without being opened",
            "dev.md": "symbolic link to a character device; skipped without being opened",
        }
        report = _pipe(InMemoryStore()).ingest(docs)
        assert report.ok and len(report.warnings) == 3 and len(report.added) == 3
    finally:
        server.close()


def test_a_file_turned_into_a_fifo_after_its_stat_is_never_waited_on(tmp_path: Path) -> None:
    regular = tmp_path / "a.md"
    regular.write_text("text", encoding="utf-8")
    st = regular.stat()
    regular.unlink()
    os.mkfifo(regular)  # replaced between the stat and the read
    with pytest.raises(OSError, match=r"not a regular file \(a FIFO\); not read"):
        read_file(regular, st)


def test_an_unreadable_directory_is_reported_and_its_sources_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _folder(tmp_path / "docs")
    _folder(docs / "private", {"p.md": "# P\n\nPrivate notes.\n"})
    store = InMemoryStore()
    assert len(_pipe(store).ingest(docs).added) == 4
    real = os.scandir

    def scandir(path: Any) -> Any:
        if str(path).endswith("private"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    report = _pipe(store).ingest(docs, sync=True)
    assert [(Path(f.source).name, f.error) for f in report.failed] == [
        ("private", "cannot read directory (Permission denied); the sources indexed under it are kept")
    ]
    assert not report.deleted and len(store.documents()) == 4


def test_a_file_that_vanishes_between_scan_and_read_fails_alone(tmp_path: Path) -> None:
    from sectionrag.ingest.runner import run_ingest

    docs = _folder(tmp_path / "docs")
    pipe = _pipe(InMemoryStore())
    files = scan_paths(docs).files
    (docs / "beta.md").unlink()
    report = run_ingest(pipe.stages(), files)
    assert [(Path(f.source).name, f.error.split(": ", 1)[1]) for f in report.failed] == [
        ("beta.md", "no such file (it disappeared during the ingest)")
    ]
    assert len(report.added) == 2


# -- no silent corruption at run level ---------------------------------------------------------


class Picky:
    """A chunker that keeps nothing of documents that mention 'nothing'."""

    def chunk(self, document: Document) -> list[Chunk]:
        if "nothing" in document.text:
            return []
        return sectionrag.chunker("paragraph", size=64).chunk(document)


def test_a_document_with_no_chunk_is_a_warning(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _folder(tmp_path / "docs", {**TEXTS, "void.md": "# Void\n\nThere is nothing here.\n"})
    store = InMemoryStore()
    report = _pipe(store, chunker=Picky()).ingest(docs)
    assert [(Path(w.source).name, w.message) for w in report.warnings] == [
        ("void.md", "indexed with no chunk: nothing of it is searchable (no text the chunker keeps)")
    ]
    assert "1 warning(s)" in report.summary() and report.ok
    again = _pipe(store, chunker=Picky()).ingest(docs)
    assert len(again.unchanged) == 4 and [Path(w.source).name for w in again.warnings] == ["void.md"]

    from sectionrag import registry

    registry.register("chunker", "picky", Picky)
    code, out, err = cli(
        "index", "docs", "--db", "db", "--embedder", "hash", "--strategy", "picky", "--json", capsys=capsys
    )
    warnings = json.loads(out)["warnings"]
    assert code == 0 and [w["source"] for w in warnings] == ["docs/void.md"]
    code, out, err = cli("index", "docs", "--db", "db", "--strategy", "picky", "--rechunk", capsys=capsys)
    assert code == 0 and "warning: docs/void.md: indexed with no chunk" in err and "1 warning(s)" in out


# -- guard the destructive and surprising ------------------------------------------------------


def test_sync_that_would_empty_the_collection_needs_allow_empty(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path / "docs")
    (tmp_path / "empty").mkdir()
    _folder(tmp_path / "other", {"o.md": "# O\n\nOther things.\n"})
    assert cli("index", "docs", "--db", "db", "--embedder", "hash", capsys=capsys)[0] == 0
    for folder in ("empty", "other"):
        code, out, err = cli("index", folder, "--db", "db", "--sync", capsys=capsys)
        assert code == 2 and out == "", folder
        assert "sync would delete all 3 document(s) of collection 'default'" in err and "--allow-empty" in err
        assert len(LanceDBStore(tmp_path / "db").documents()) == 3  # nothing deleted, nothing added
    code, out, err = cli("index", "empty", "--db", "db", "--sync", "--allow-empty", "--json", capsys=capsys)
    assert code == 0 and json.loads(out)["deleted"] == 3
    assert LanceDBStore(tmp_path / "db").documents() == []

    store = InMemoryStore()
    _pipe(store).ingest(tmp_path / "docs")
    with pytest.raises(ConfigError, match="allow_empty=True"):
        _pipe(store).ingest([], sync=True)
    assert len(_pipe(store).ingest([], sync=True, allow_empty=True).deleted) == 3


def test_cli_reuses_the_collections_chunker_and_refuses_another_without_rechunk(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path / "docs")
    code, out, _ = cli(
        "index",
        "docs",
        "--db",
        "db",
        "--embedder",
        "hash",
        "--strategy",
        "recursive",
        "--size",
        "40",
        capsys=capsys,
    )
    assert code == 0 and "3 added" in out
    code, out, err = cli(
        "index", "docs", "--db", "db", "--json", capsys=capsys
    )  # no --strategy: the recorded one
    assert code == 0 and json.loads(out)["unchanged"] == 3, err
    rec = LanceDBStore(tmp_path / "db").read_records()[0]
    assert json.loads(rec.config_json)["chunker"]["strategy"] == "recursive"

    code, out, err = cli("index", "docs", "--db", "db", "--strategy", "paragraph", capsys=capsys)
    assert code == 2 and out == "" and "--rechunk" in err and '"recursive" -> "paragraph"' in err
    code, out, err = cli(
        "index", "docs", "--db", "db", "--size", "30", capsys=capsys
    )  # the recorded strategy
    assert code == 2 and "chunker.size: 40 -> 30" in err and "strategy" not in err.split("(")[1].split(")")[0]
    code, out, err = cli("index", "docs", "--db", "db", "--size", "30", "--rechunk", "--json", capsys=capsys)
    assert code == 0 and json.loads(out)["updated"] == 3
    rec = LanceDBStore(tmp_path / "db").read_records()[0]
    assert json.loads(rec.config_json)["chunker"]["strategy"] == "recursive"


def test_api_refuses_to_rechunk_without_rechunk(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    store = InMemoryStore()
    _pipe(store, chunker=sectionrag.chunker("fixed", size=32)).ingest(docs)
    with pytest.raises(ConfigError, match=r"3 source\(s\).*\"fixed\" -> \"paragraph\".*rechunk=True"):
        _pipe(store).ingest(docs)
    with pytest.raises(ConfigError, match="rechunk=True"):  # new sources too: one collection, one setting
        _pipe(store).ingest(Document.create("A note.", source="note"))
    assert len(_pipe(store).ingest(docs, rechunk=True).updated) == 3
    # with sync, the sources it deletes do not count
    other = _folder(tmp_path / "other", {"o.md": "# O\n\nOther.\n"})
    report = _pipe(store, chunker=sectionrag.chunker("fixed", size=32)).ingest(
        [other, docs / "alpha.md"], sync=True, rechunk=True
    )
    assert _names(report.deleted) == ["beta.md", "gamma.txt"]


def test_empty_query_is_an_error_in_every_mode(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path / "docs")
    assert cli("index", "docs", "--db", "db", "--embedder", "hash", capsys=capsys)[0] == 0
    for mode in ("vector", "text", "hybrid"):
        for query in ("", "   \n\t"):
            code, out, err = cli("search", query, "--db", "db", "--mode", mode, capsys=capsys)
            assert code == 2 and out == "" and "the query is empty" in err, mode
    pipe = _pipe(LanceDBStore(tmp_path / "db"))
    for mode in ("vector", "text", "hybrid"):
        with pytest.raises(ConfigError, match="the query is empty"):
            pipe.search(" ", mode=mode)  # type: ignore[arg-type]
    vector = HashEmbedder().embed_query("gamma ray")
    assert pipe.search("", query_vector=vector, k=1, mode="vector")  # the vector is the query; no text used


# -- typed argument checks ---------------------------------------------------------------------


def test_arguments_of_the_wrong_type_fail_at_once_naming_the_argument(tmp_path: Path) -> None:
    store = InMemoryStore()
    emb = HashEmbedder()
    with pytest.raises(ConfigError, match="batch_size must be an integer"):
        Pipeline(embedder=emb, store=store, batch_size=2.5)  # type: ignore[arg-type]
    pipe = _pipe(store)
    docs = _folder(tmp_path / "docs")
    bad: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"lock_timeout": "x"}, ConfigError, "lock_timeout must be a number"),
        ({"lock_timeout": -1}, ConfigError, "lock_timeout must be at least 0"),
        ({"lock_timeout": float("nan")}, ConfigError, "lock_timeout must be a number, not NaN"),
        ({"sync": "false"}, TypeError, "sync must be True or False"),
        ({"allow_empty": 1}, TypeError, "allow_empty must be True or False"),
        ({"rechunk": None}, TypeError, "rechunk must be True or False"),
        ({"verify": "yes"}, TypeError, "verify must be True or False"),
        ({"parse_ahead": "no"}, TypeError, "parse_ahead must be True or False"),
        ({"follow_symlinks": 1}, TypeError, "follow_symlinks must be True or False"),
        ({"include": 5}, TypeError, "include must be a list of str"),
        ({"exclude": [b"*.md"]}, TypeError, "exclude must hold str items"),
    ]
    for kwargs, error, message in bad:
        with pytest.raises(error, match=message):
            pipe.ingest(docs, **kwargs)
    assert pipe.ingest(docs, include="*.md", lock_timeout=float("inf")).ok  # one pattern; wait forever
    assert _names([d.source for d in store.documents()]) == ["alpha.md", "beta.md"]
    with pytest.raises(ConfigError, match="k must be an integer"):
        pipe.search("apples", k="3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="where must be a mapping"):
        pipe.search("apples", where=5)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="weights must be a"):
        pipe.search("apples", mode="hybrid", weights=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="query must be str"):
        pipe.search(b"apples")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="path must be a path"):
        LanceDBStore(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="db must be a path"):
        Pipeline.default(None, embedder=emb)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="collection must be a str"):
        Pipeline.default(tmp_path / "db", collection=3, embedder=emb)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="paths must be a path"):
        scan_paths([docs, 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not bytes"):
        pipe.ingest(b"docs")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="query_vector must be an array of numbers"):
        pipe.search("apples", query_vector="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="doc_id must be str"):
        store.delete(5)  # type: ignore[arg-type]
    for locked in (store, LanceDBStore(tmp_path / "db")):
        with pytest.raises(ConfigError, match="timeout must be a number"), locked.write_lock("x"):  # type: ignore[arg-type]
            pass


def test_db_that_is_a_file_and_odd_collection_names(
    tmp_path: Path, cli: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path / "docs")
    (tmp_path / "file").write_text("not a database", encoding="utf-8")
    for command in (["index", "docs"], ["search", "apples"]):
        code, _, err = cli(*command, "--db", "file", "--embedder", "hash", capsys=capsys)
        assert code == 1 and "file is a file, not a database" in err, command
    with pytest.raises(StoreError, match="is a file, not a database"):
        LanceDBStore(tmp_path / "file").info()
    for name in ("../up", "a/b", "", "_hidden", "x" * 200, "naïve"):
        code, _, err = cli(
            "index", "docs", "--db", "db", "--embedder", "hash", "--collection", name, capsys=capsys
        )
        assert code == 2 and "invalid collection name" in err, name
    assert not (tmp_path / "up").exists()
