"""``Pipeline.open``: a collection reopened with the stages it was built with."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag.cli import main
from sectionrag.enrich import ExtractiveEnricher, LLMEnricher
from sectionrag.errors import (
    CollectionNotFoundError,
    ConfigError,
    EmbedderMismatchError,
    ModelNotAvailableError,
)
from sectionrag.ingest.reopen import Unrestored, same_model
from sectionrag.pipeline import Pipeline
from sectionrag.stores import LanceDBStore
from sectionrag.testing import FakeLLM, HashEmbedder

QUERY = "Can I return a product?"


@pytest.fixture
def hash48(clean_registry: None) -> HashEmbedder:
    """A fake embedder registered under its own name, as a plug-in's would be."""
    emb = HashEmbedder(48, name="hash-48")
    sectionrag.register("embedder", "hash-48", lambda: emb)
    return emb


def hits(results: list[Any]) -> list[tuple[str, int, int]]:
    return [(r.source, r.start, r.end) for r in results]


def test_reopen_restores_embedder_chunker_and_enricher(
    tmp_path: Path, docs: Path, hash48: HashEmbedder
) -> None:
    db = tmp_path / "db"
    built = Pipeline(
        chunker=sectionrag.chunker("paragraph", size=40),
        embedder=hash48,
        store=LanceDBStore(db, collection="c"),
        enricher=ExtractiveEnricher(keywords=3),
    )
    assert built.ingest([docs]).ok

    pipe = Pipeline.open(db, "c")
    assert pipe.embedder is hash48  # built again by its recorded name, through the registry
    assert type(pipe.chunker).__name__ == "ParagraphChunker" and pipe.chunker.size == 40  # type: ignore[attr-defined]
    assert isinstance(pipe.enricher, ExtractiveEnricher) and pipe.enricher.keywords == 3
    for mode in ("vector", "text", "hybrid"):
        assert hits(pipe.search(QUERY, k=4, mode=mode)) == hits(built.search(QUERY, k=4, mode=mode))

    calls = hash48.calls
    again = pipe.ingest([docs])
    assert len(again.unchanged) == 2 and not again.updated and not again.reconfigured
    assert hash48.calls == calls  # nothing embedded: the restored settings are the recorded ones

    (docs / "extra.md").write_text("# Returns\n\nReturns are free within 30 days.\n", encoding="utf-8")
    report = pipe.ingest([docs])
    assert report.added == [str(docs / "extra.md")]
    added = pipe.search("returns free", k=1, where={"source": "extra.md"})[0]
    assert added.metadata["enriched_by"].startswith("extractive")  # enriched as before


def test_reopened_stages_can_be_replaced(tmp_path: Path, docs: Path, hash48: HashEmbedder) -> None:
    db = tmp_path / "db"
    Pipeline(
        chunker=sectionrag.chunker("paragraph", size=40), embedder=hash48, store=LanceDBStore(db)
    ).ingest([docs])
    pipe = Pipeline.open(db, chunker=sectionrag.chunker("sentence", size=30), enricher=ExtractiveEnricher())
    assert type(pipe.chunker).__name__ == "SentenceChunker"
    with pytest.raises(ConfigError, match="rechunk=True"):  # other settings than recorded: refused ...
        pipe.ingest([docs])
    report = pipe.ingest([docs], rechunk=True)
    assert len(report.reconfigured) == 2  # ... unless asked: indexed again
    assert Pipeline.open(db, enricher=False).enricher is None


def test_missing_collection_and_wrong_embedder_are_refused(
    tmp_path: Path, docs: Path, hash48: HashEmbedder
) -> None:
    db = tmp_path / "db"
    with pytest.raises(CollectionNotFoundError, match="'nope' does not exist"):
        Pipeline.open(db, "nope")
    Pipeline(embedder=hash48, store=LanceDBStore(db), chunker=sectionrag.chunker("paragraph")).ingest([docs])
    with pytest.raises(CollectionNotFoundError, match="existing collections: default"):
        Pipeline.open(db, "nope")
    with pytest.raises(EmbedderMismatchError, match="hash-48"):
        Pipeline.open(db, embedder=HashEmbedder(48, name="other"))


def test_same_model_whatever_the_backend() -> None:
    assert same_model("org/model@onnx-int8", "org/model")
    assert same_model("org/model@openvino", "org/model@onnx")
    assert not same_model("org/model", "org/other@onnx")
    assert not same_model("org/model@nonsense", "org/model")  # no backend: part of the name


def test_unavailable_model_is_a_typed_error_naming_it(tmp_path: Path, docs: Path) -> None:
    db = tmp_path / "db"
    gone = HashEmbedder(32, name="acme/retired-embedder")  # a hub model id this machine does not have
    Pipeline(embedder=gone, store=LanceDBStore(db), chunker=sectionrag.chunker("paragraph")).ingest([docs])
    with pytest.raises(ModelNotAvailableError, match="acme/retired-embedder") as caught:
        Pipeline.open(db)
    assert caught.value.model == "acme/retired-embedder"
    assert "default" in str(caught.value)  # and the collection

    lazy = Pipeline.open(db, check=False)  # full-text search needs no model
    assert lazy.search("return", mode="text", k=2)
    with pytest.raises(ModelNotAvailableError, match="acme/retired-embedder"):
        lazy.search("return", mode="vector")


def test_an_llm_enricher_is_not_rebuilt_but_searching_works(
    tmp_path: Path, docs: Path, hash48: HashEmbedder
) -> None:
    db = tmp_path / "db"
    answer = json.dumps(
        {"summary": "A policy.", "questions": ["What is it?"], "metadata": {"categories": ["policy"]}}
    )
    Pipeline(
        embedder=hash48,
        store=LanceDBStore(db),
        chunker=sectionrag.chunker("paragraph", size=60),
        enricher=LLMEnricher(FakeLLM(answer), model="tiny-llm"),
    ).ingest([docs])

    pipe = Pipeline.open(db)
    assert isinstance(pipe.enricher, Unrestored)
    assert pipe.search(QUERY, k=1)[0].metadata["summary"] == "A policy."
    assert len(pipe.ingest([docs]).unchanged) == 2  # unchanged files never reach the enricher

    (docs / "extra.md").write_text("# New\n\nA new policy paragraph.\n", encoding="utf-8")
    report = pipe.ingest([docs])
    assert [f.source for f in report.failed] == [str(docs / "extra.md")]
    assert "enricher" in report.failed[0].error and "Pipeline.open" in report.failed[0].error

    fixed = Pipeline.open(db, enricher=LLMEnricher(FakeLLM(answer), model="tiny-llm"))
    assert fixed.ingest([docs]).added == [str(docs / "extra.md")]


def test_unrestored_stage_keeps_the_recorded_description() -> None:
    description = {"type": "my_pkg.Chunker", "size": 7}
    stand_in = Unrestored("chunker", description, "not installed")
    assert stand_in.config() == description
    with pytest.raises(ConfigError, match="chunker=") as caught:
        stand_in.chunk(sectionrag.Document.create("Some text."))
    assert "not installed" in str(caught.value)


def test_cli_index_keeps_recorded_chunker_and_search_json_carries_enrichment(
    tmp_path: Path, docs: Path, hash48: HashEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "db")
    args = ["index", str(docs), "--db", db, "--embedder", "hash-48", "--strategy", "paragraph"]
    args += ["--size", "40"]
    assert main([*args, "--enrich", "extractive", "--json"]) == 0
    capsys.readouterr()
    assert main(["index", str(docs), "--db", db, "--json"]) == 0  # no options: as recorded
    assert json.loads(capsys.readouterr().out)["unchanged"] == 2

    assert main(["search", "return a product", "--db", db, "--json", "-k", "2"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert results and all(r["enrichment"]["enriched_by"].startswith("extractive") for r in results)
    assert {"keywords", "summary"} <= set(results[0]["enrichment"])

    assert main(["index", str(docs), "--db", db, "--enrich", "none", "--json"]) == 2  # other settings
    assert "--rechunk" in capsys.readouterr().err
    assert main(["index", str(docs), "--db", db, "--enrich", "none", "--rechunk", "--json"]) == 0
    capsys.readouterr()
    assert main(["search", "return a product", "--db", db, "--json", "-k", "2"]) == 0
    assert all("enrichment" not in r for r in json.loads(capsys.readouterr().out)["results"])


def test_cli_text_search_loads_no_model(tmp_path: Path, docs: Path) -> None:
    import subprocess

    db = tmp_path / "db"
    gone = HashEmbedder(32, name="acme/retired-embedder")
    Pipeline(embedder=gone, store=LanceDBStore(db), chunker=sectionrag.chunker("paragraph")).ingest([docs])
    code = (
        "import sys; from sectionrag.cli import main; "
        f"rc = main(['search', 'refund', '--db', {str(db)!r}, '--mode', 'text', '--json']); "
        "heavy = [m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules]; "
        "print(rc, heavy, file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr.strip().splitlines()[-1] == "0 []"
    assert json.loads(out.stdout)["results"][0]["source"].endswith("customer_policies.md")


def test_the_sectionrag_program_imports_lancedb_without_pandas(tmp_path: Path, docs: Path) -> None:
    """The command's own process hides pandas from lancedb's import; pandas works afterwards."""
    import subprocess

    db = tmp_path / "db"
    Pipeline(
        embedder=HashEmbedder(32), store=LanceDBStore(db), chunker=sectionrag.chunker("paragraph")
    ).ingest([docs])
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['sectionrag', 'search', 'refund', '--db', {str(db)!r}, '--mode', 'text', '--json']\n"
        "try:\n    runpy.run_module('sectionrag', run_name='__main__')\n"
        "except SystemExit as e:\n    rc = e.code\n"
        "hidden = 'pandas' not in sys.modules\n"
        "import pandas as pd, pyarrow as pa\n"
        "ok = pa.table(pd.DataFrame({'a': [1, 2]})).num_rows == 2\n"
        "ok = ok and pa.table({'a': [1]}).to_pandas().shape == (1, 1)\n"
        "print(rc, hidden, ok, file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr.strip().splitlines()[-1] == "0 True True"
    assert json.loads(out.stdout)["results"][0]["source"].endswith("customer_policies.md")


@pytest.mark.model
def test_minilm_collection_reopens_without_naming_the_embedder(
    tmp_path: Path, docs: Path, minilm: Any
) -> None:
    db = tmp_path / "db"
    built = Pipeline(chunker=sectionrag.chunker("paragraph"), embedder=minilm, store=LanceDBStore(db))
    assert built.ingest([docs]).ok
    pipe = Pipeline.open(db)
    # the recorded name carries the backend, which is restored with the model
    assert pipe.embedder.name == minilm.name == f"sentence-transformers/all-MiniLM-L6-v2@{minilm.backend}"
    assert pipe.embedder.backend == minilm.backend
    assert hits(pipe.search(QUERY, k=3)) == hits(built.search(QUERY, k=3))
    # another backend runs the same model (its queries search the collection); an unknown one is refused
    other = "torch" if minilm.backend != "torch" else "onnx"
    assert Pipeline.open(db, backend=other, check=False).embedder.backend == other
    assert Pipeline.open(db, embedder="minilm", backend=other, check=False).embedder.backend == other
    with pytest.raises(ConfigError, match="unknown embedding backend"):
        Pipeline.open(db, backend="tpu")


@pytest.mark.model
def test_cli_index_of_an_unchanged_folder_loads_no_model(tmp_path: Path, docs: Path, minilm: Any) -> None:
    import subprocess

    db = tmp_path / "db"
    assert (
        Pipeline(embedder=minilm, store=LanceDBStore(db), chunker=sectionrag.chunker("paragraph"))
        .ingest([docs])
        .ok
    )
    code = (
        "import sys; from sectionrag.cli import main; "
        f"rc = main(['index', {str(docs)!r}, '--db', {str(db)!r}, '--json']); "
        "heavy = [m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules]; "
        "print(rc, heavy, file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr.strip().splitlines()[-1] == "0 []"
    assert json.loads(out.stdout)["unchanged"] == 2
