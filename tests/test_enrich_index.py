"""Enrichment in the index: full-text beside the text, list columns for filters, results carry it, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import sectionrag
from _chat_server import ChatServer
from sectionrag.cli import main
from sectionrag.enrich import ExtractiveEnricher, LLMEnricher, OpenAICompatibleLLM
from sectionrag.errors import ConfigError, FilterError
from sectionrag.pipeline import Pipeline
from sectionrag.protocols import VectorStore
from sectionrag.stores import InMemoryStore, LanceDBStore
from sectionrag.stores._filters import compile_sql, parse_where
from sectionrag.stores.lancedb import chunk_schema
from sectionrag.testing import HashEmbedder
from sectionrag.types import Chunk

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "examples" / "data" / "northwind_annual_report_2025.md"


def build(store: VectorStore, enricher: Any) -> tuple[Pipeline, list[Chunk]]:
    emb = HashEmbedder()
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", tokenizer=emb), embedder=emb, store=store, enricher=enricher
    )
    report = pipe.ingest([REPORT])
    assert report.ok
    doc = sectionrag.parse(REPORT)
    chunks = enricher.enrich(sectionrag.chunker("section", tokenizer=emb).chunk(doc), doc)
    return pipe, chunks


@pytest.fixture(params=["memory", "lancedb"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> VectorStore:
    if request.param == "memory":
        return InMemoryStore()
    return LanceDBStore(tmp_path / "db", collection="c")


def ids(pipe: Pipeline, where: Any) -> set[int]:
    return {h.chunk_index for h in pipe.search("anything at all", k=500, where=where)}


def expected(chunks: list[Chunk], test: Any) -> set[int]:
    return {c.index for c in chunks if test(c.metadata)}


def test_list_filters_select_exactly(store: VectorStore) -> None:
    pipe, chunks = build(store, ExtractiveEnricher())
    fy = expected(chunks, lambda m: "FY2025" in m["fiscal_periods"])
    assert fy and ids(pipe, {"fiscal_periods": "FY2025"}) == fy
    assert ids(pipe, {"years": 2024}) == expected(chunks, lambda m: 2024 in m["years"])
    assert ids(pipe, {"years": [2014, 2031]}) == expected(chunks, lambda m: {2014, 2031} & set(m["years"]))
    pair = next(c.metadata["years"][:2] for c in chunks if len(c.metadata["years"]) >= 2)
    both = expected(chunks, lambda m: set(pair) <= set(m["years"]))
    assert both and ids(pipe, {"years": ("all", pair)}) == both
    big = expected(chunks, lambda m: any(a["value"] >= 1e9 for a in m["amounts"]))
    assert big and ids(pipe, {"amounts": (">=", 1e9)}) == big
    small = expected(chunks, lambda m: any(a["value"] < 100 for a in m["amounts"]))
    assert small and ids(pipe, {"amounts": ("<", 100)}) == small
    assert ids(pipe, {"percentages": 12.0}) == expected(chunks, lambda m: 12.0 in m["percentages"])
    assert ids(pipe, {"entities": "Harbor & Vale LLP"}) == expected(
        chunks, lambda m: "Harbor & Vale LLP" in m["entities"]
    )
    no_money = expected(chunks, lambda m: not m["amounts"])
    assert ids(pipe, {"amounts": None}) == no_money
    assert ids(pipe, {"amounts": ("!=", None)}) == {c.index for c in chunks} - no_money
    assert ids(pipe, {"years": ("!=", 2025)}) == expected(chunks, lambda m: 2025 not in m["years"])
    assert ids(pipe, {"years": []}) == set()
    assert ids(pipe, {"years": ("all", [])}) == {c.index for c in chunks}
    assert ids(pipe, {"fiscal_periods": "FY2025", "section": "Overview"}) <= fy
    assert ids(pipe, {"entities": "x' OR '1'='1"}) == set()


def test_results_carry_enrichment(store: VectorStore) -> None:
    pipe, _ = build(store, ExtractiveEnricher())
    hit = pipe.search("total revenue for fiscal 2025", k=1, mode="text")[0]
    for key in ("summary", "keywords", "years", "fiscal_periods", "amounts", "entities", "enriched_by"):
        assert key in hit.metadata
    assert hit.metadata["summary"] in " ".join(hit.text.split())


def test_questions_and_keywords_are_searchable_text(store: VectorStore) -> None:
    doc_words = REPORT.read_text(encoding="utf-8").lower()
    assert "quokka" not in doc_words  # only the LLM's keywords say it
    with ChatServer() as server:
        llm = OpenAICompatibleLLM(server.url, "tiny")
        pipe, _ = build(store, LLMEnricher(llm, backoff=0.01))
    for mode in ("text", "hybrid"):
        hits = pipe.search("quokka", k=3, mode=mode)
        assert hits and "quokka synonym" in hits[0].metadata["keywords"], mode
    hits = pipe.search("What about Northwind", k=3, mode="text")  # the generated questions
    assert hits and any(q.startswith("What about") for q in hits[0].metadata["questions"])
    assert pipe.search("quokka", k=3, mode="text", where={"fiscal_periods": "FY2025"})


def test_raw_sql_on_list_columns(tmp_path: Path) -> None:
    pipe, chunks = build(LanceDBStore(tmp_path / "db", collection="c"), ExtractiveEnricher())
    got = ids(pipe, "array_has(fiscal_periods, 'FY2025') AND array_max(amounts) > 1e9")
    want = expected(
        chunks, lambda m: "FY2025" in m["fiscal_periods"] and any(a["value"] > 1e9 for a in m["amounts"])
    )
    assert got == want and got


def test_old_collection_without_enrichment_columns(tmp_path: Path) -> None:
    import lancedb

    emb = HashEmbedder()
    full = chunk_schema(emb.name, emb.dimension)
    old = pa.schema(
        [
            f
            for f in full
            if f.name
            not in (
                "enrichment",
                "years",
                "dates",
                "fiscal_periods",
                "amounts",
                "percentages",
                "entities",
                "keywords",
                "categories",
            )
        ],
        metadata=full.metadata,
    )
    lancedb.connect(str(tmp_path / "db")).create_table("c", schema=old)
    store = LanceDBStore(tmp_path / "db", collection="c")
    pipe, _ = build(store, ExtractiveEnricher())  # writes work: the extra values are left out
    assert pipe.search("revenue", k=2, mode="text")
    assert pipe.search("revenue", k=2, mode="hybrid")[0].metadata["years"]  # still in the metadata JSON
    with pytest.raises(FilterError, match="before enrichment columns"):
        pipe.search("revenue", k=2, where={"years": 2025})


@pytest.mark.parametrize(
    "where",
    [
        {"years": "2025"},
        {"years": 2025.5},
        {"years": True},
        {"entities": 3},
        {"entities": ["a", 3]},
        {"entities": (">", "a")},
        {"amounts": ("all", 5)},
        {"amounts": ("~", 5)},
        {"amounts": "big"},
    ],
)
def test_bad_list_filters(where: dict[str, Any]) -> None:
    with pytest.raises(FilterError):
        parse_where(where)


def test_list_filter_sql_is_quoted() -> None:
    sql = compile_sql(
        parse_where({"entities": ["O'Brien", "x') OR true --"], "amounts": (">=", 5), "years": ("!=", 2025)})
    )
    assert sql == (
        "(array_has_any(\"entities\", ['O''Brien', 'x'') OR true --'])) AND (array_max(\"amounts\") >= 5.0) "
        'AND (NOT array_has("years", 2025))'
    )


# -- CLI ------------------------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.model
def test_cli_index_extractive_and_filter_by_fiscal_year(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], minilm: Any
) -> None:
    db = str(tmp_path / "db")
    code, out, _ = _run(
        capsys, "index", str(REPORT), "--db", db, "--embedder", "minilm", "--enrich", "extractive", "--json"
    )
    assert code == 0 and json.loads(out)["chunks"] > 5
    where = "array_has(fiscal_periods, 'FY2025')"
    code, out, _ = _run(
        capsys,
        "search",
        "revenue",
        "--db",
        db,
        "--mode",
        "text",
        "--where",
        where,
        "-k",
        "50",
        "--json",
        "--allow-overlap",
    )
    assert code == 0
    results = json.loads(out)["results"]
    assert results
    store = LanceDBStore(db)
    hits = store.search(query_text="revenue", k=50, mode="text", where={"fiscal_periods": "FY2025"})
    assert [r["start"] for r in results] == [h.start for h in hits]
    assert all("FY2025" in h.metadata["fiscal_periods"] for h in hits)
    everything = store.search(query_text="revenue", k=50, mode="text")
    assert len(everything) > len(hits)


@pytest.mark.model
def test_cli_llm_estimate_then_index(tmp_path: Path, capsys: pytest.CaptureFixture[str], minilm: Any) -> None:
    db = str(tmp_path / "db")
    with ChatServer() as server:
        llm_args = ("--enrich", "llm", "--llm-url", server.url, "--llm-model", "tiny", "--embedder", "minilm")
        code, out, _ = _run(capsys, "index", str(REPORT), "--db", db, *llm_args, "--estimate", "--json")
        assert code == 0, out
        est = json.loads(out)["estimate"]
        assert est["documents"] == 1 and est["input_tokens"] > 0
        # every regular chunk is sent; the fine chunks (inside them) are not
        assert est["chunks"] > est["calls"] > 5 and est["calls"] + est["skipped"] == est["chunks"]
        assert server.requests == [] and not Path(db).exists()  # nothing sent, nothing written

        code, out, _ = _run(capsys, "index", str(REPORT), "--db", db, *llm_args, "--json")
        assert code == 0 and json.loads(out)["chunks"] == est["chunks"]
        assert len(server.requests) == est["calls"]

        code, out, _ = _run(capsys, "index", str(REPORT), "--db", db, *llm_args, "--estimate", "--json")
        assert json.loads(out)["estimate"]["calls"] == 0  # all cached now
        code, out, _ = _run(capsys, "index", str(REPORT), "--db", db, *llm_args, "--estimate")
        assert "0 LLM calls" in out and "nothing was sent" in out
    code, out, _ = _run(capsys, "search", "quokka", "--db", db, "--mode", "text", "--json")
    assert code == 0 and json.loads(out)["results"]


def test_cli_enrich_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "db")
    code, _, err = _run(capsys, "index", str(REPORT), "--db", db, "--enrich", "magic", "--embedder", "minilm")
    assert code == 2 and "extractive, llm, none" in err
    code, _, err = _run(capsys, "index", str(REPORT), "--db", db, "--enrich", "llm", "--embedder", "minilm")
    assert code == 2 and "--llm-url" in err


def test_changed_enricher_settings_reindex_and_same_settings_skip(tmp_path: Path) -> None:
    store = LanceDBStore(tmp_path / "db", collection="c")
    emb = HashEmbedder()

    def ingest(enricher: Any, rechunk: bool = False) -> Any:
        pipe = Pipeline(
            chunker=sectionrag.chunker("section", tokenizer=emb), embedder=emb, store=store, enricher=enricher
        )
        return pipe.ingest([REPORT], rechunk=rechunk)

    assert len(ingest(ExtractiveEnricher()).added) == 1
    assert len(ingest(ExtractiveEnricher()).unchanged) == 1
    with pytest.raises(ConfigError, match=r"enricher.keywords: 5 -> 3.*rechunk=True"):
        ingest(ExtractiveEnricher(keywords=3))
    again = ingest(ExtractiveEnricher(keywords=3), rechunk=True)
    assert len(again.reconfigured) == 1
    assert all(
        len(h.metadata["keywords"]) <= 3 for h in store.search(query_text="revenue", k=50, mode="text")
    )


@pytest.mark.model
def test_cli_extractive_estimate_calls_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], minilm: Any
) -> None:
    db = str(tmp_path / "db")
    args = (
        "index",
        str(REPORT),
        "--db",
        db,
        "--embedder",
        "minilm",
        "--enrich",
        "extractive",
        "--estimate",
        "--json",
    )
    code, out, _ = _run(capsys, *args)
    est = json.loads(out)["estimate"]
    assert code == 0 and est["calls"] == 0 and est["chunks"] > 5 and not Path(db).exists()
