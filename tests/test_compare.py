"""The strategy comparison (seed 001's experiment for any document)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sectionrag
from sectionrag import ConfigError, Document
from sectionrag.eval.compare import DEFAULT_STRATEGIES, build_chunker, compare, parse_spec, plot
from sectionrag.testing import HashEmbedder

SEED = (Path(__file__).parent / "data" / "seed001_policies.txt").read_text(encoding="utf-8")


def test_parse_spec() -> None:
    assert parse_spec("paragraph") == ("paragraph", {})
    assert parse_spec("overlap:unit=chars:size=100:overlap=30") == (
        "overlap",
        {"unit": "chars", "size": 100, "overlap": 30},
    )
    assert parse_spec("semantic:threshold=0.4:method=threshold") == (
        "semantic",
        {"threshold": 0.4, "method": "threshold"},
    )
    assert parse_spec("paragraph:pack=true:x=none") == ("paragraph", {"pack": True, "x": None})
    with pytest.raises(ConfigError, match="key=value"):
        parse_spec("paragraph:pack")


def test_build_chunker_passes_the_embedder_only_where_it_belongs() -> None:
    emb = HashEmbedder()
    assert build_chunker("semantic", embedder=emb).embedder is emb  # type: ignore[attr-defined]
    assert build_chunker("section", embedder=emb).inner.embedder is emb  # type: ignore[attr-defined]
    build_chunker("paragraph", embedder=emb)  # accepted and ignored
    build_chunker("section:inner=paragraph", embedder=emb)


def test_compare_scores_every_chunk_against_the_query() -> None:
    emb = HashEmbedder()
    doc = Document.create(SEED)
    query = "refund policy: return products with receipt"
    result = compare(doc, [query], ["paragraph", "sentence:max_sentences=1"], embedder=emb)
    assert [r.strategy for r in result.rows] == ["paragraph", "sentence:max_sentences=1"]
    para, lines = result.rows
    assert len(para.chunks) == 4 and len(lines.chunks) == 8
    q = para.queries[0]
    assert len(q.scores) == 4 and q.best_chunk_index == 0  # the refund paragraph wins
    row = para.to_dict()
    assert set(row) == {"strategy", "chunks", "best_score", "best_chunk_index", "scores"}
    assert row["chunks"] == 4 and row["best_score"] == max(row["scores"])
    out = result.to_dict(chunk_texts=True)
    assert out["rows"][0]["chunk_texts"][0].startswith("Refund Policy:")
    assert out["queries"] == [query] and out["embedder"] == "hash"


def test_compare_with_chunker_instances_and_empty_documents() -> None:
    emb = HashEmbedder()
    result = compare(
        Document.create("   "), "anything", {"mine": sectionrag.chunker("paragraph")}, embedder=emb
    )
    row = result.rows[0]
    assert row.strategy == "mine" and row.chunks == [] and row.best_score is None
    assert row.to_dict()["best_chunk_index"] is None


def test_compare_rejects_bad_input() -> None:
    doc = Document.create(SEED)
    with pytest.raises(ConfigError, match="query"):
        compare(doc, [], ["paragraph"], embedder=HashEmbedder())
    with pytest.raises(ConfigError, match="strategy"):
        compare(doc, ["q"], [], embedder=HashEmbedder())
    with pytest.raises(ConfigError, match="choose one of"):
        compare(doc, ["q"], ["nope"], embedder=HashEmbedder())


def test_default_strategies_are_all_seven() -> None:
    from sectionrag import registry

    assert sorted(DEFAULT_STRATEGIES) == registry.names("chunker")


def test_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = compare(Document.create(SEED), ["refund"], ["paragraph", "fixed"], embedder=HashEmbedder())
    out = tmp_path / "chart.png"
    plot(result, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import builtins

    real = builtins.__import__

    def fake(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", fake)
    result = compare(Document.create(SEED), ["refund"], ["paragraph"], embedder=HashEmbedder())
    with pytest.raises(sectionrag.MissingDependencyError, match=r"sectionrag\[plot\]"):
        plot(result, str(tmp_path / "x.png"))
