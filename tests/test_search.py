"""Search modes, fusion, full-text upkeep and odd queries, on both stores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sectionrag.errors import CollectionNotFoundError, ConfigError
from sectionrag.stores import InMemoryStore, LanceDBStore
from sectionrag.stores._common import fuse, linear, rrf, zscore
from sectionrag.testing import HashEmbedder
from sectionrag.types import Chunk, Document

TEXTS = [
    "Customers can return products within 7 days with a receipt.",
    "Orders are shipped within 3 business days of payment.",
    "Refund requests need the original receipt and the order number.",
    "Users must verify their email address before the first login.",
    "The warehouse restocks shelves every Monday morning.",
    "Gift cards cannot be returned or exchanged for cash.",
]

#: queries that must never raise in text or hybrid mode
ODD_QUERIES = [
    "",
    "   ",
    '"',
    "'",
    '"receipt',
    "receipt:refund",
    "text:receipt",
    "x' OR '1'='1",
    "AND OR NOT",
    "receipt AND NOT orders",
    "(",
    ")",
    "[receipt]",
    "{}",
    "\\",
    "C:\\path\\receipt",
    "*",
    "receipt*",
    "?",
    "receipt~2",
    "+receipt -orders",
    "^2",
    "receipt^10",
    "/",
    "-",
    "!",
    "&&",
    "||",
    "日本語のテキスト",
    "résumé naïve café",
    "emoji 🙂 receipt",
    "\x00receipt",
    "\t\n",
    "a" * 200,
    "receipt " * 300,
]


def chunks_of(texts: list[str], source: str = "doc.md") -> list[Chunk]:
    text = "\n".join(texts)
    doc = Document.create(text, source=source)
    out, pos = [], 0
    for i, t in enumerate(texts):
        out.append(doc.make_chunk(i, pos, pos + len(t), token_count=len(t.split())))
        pos += len(t) + 1
    return out


def make(kind: str, tmp_path: Path, **kw: Any) -> InMemoryStore | LanceDBStore:
    return InMemoryStore(**kw) if kind == "memory" else LanceDBStore(tmp_path / "db", **kw)


@pytest.fixture(params=["memory", "lancedb"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def filled(kind: str, tmp_path: Path, **kw: Any) -> tuple[Any, HashEmbedder, list[Chunk]]:
    emb = HashEmbedder(dimension=64)
    store = make(kind, tmp_path, **kw)
    store.ensure_collection(emb.name, emb.dimension)
    chunks = chunks_of(TEXTS)
    store.add(chunks, emb.embed_documents([c.embed_text for c in chunks]))
    return store, emb, chunks


# -- fusion (pure) -------------------------------------------------------------


def test_rrf_weights_scale_each_ranking() -> None:
    fused = dict(rrf([["a", "b"], ["b", "c"]], weights=[2.0, 0.5]))
    assert fused["a"] == pytest.approx(2 / 61)
    assert fused["b"] == pytest.approx(2 / 62 + 0.5 / 61)
    assert fused["c"] == pytest.approx(0.5 / 62)


def test_linear_fusion_normalises_each_ranking() -> None:
    fused = linear([[("a", 0.9), ("b", 0.5), ("c", 0.1)], [("c", 12.0), ("a", 2.0)]], [1.0, 1.0])
    assert [k for k, _ in fused] == ["a", "c", "b"]
    assert dict(fused) == pytest.approx({"a": 1.0, "b": 0.5, "c": 1.0})
    assert linear([[("x", 3.0)], []], [0.5, 0.5]) == [("x", 0.5)]  # a lone candidate counts as best


def test_zscore_fusion_standardises_each_ranking() -> None:
    # vector scores 0.9, 0.5, 0.1: mean 0.5, sd 0.3266; text 12, 2: mean 7, sd 5
    fused = dict(zscore([[("a", 0.9), ("b", 0.5), ("c", 0.1)], [("c", 12.0), ("a", 2.0)]], [1.0, 1.0]))
    sd = (0.32 / 3) ** 0.5
    assert fused == pytest.approx({"a": 0.4 / sd - 1.0, "b": 0.0, "c": -0.4 / sd + 1.0})
    # a key missing from a ranking gets that ranking's mean (0), not its worst score
    only_text = dict(zscore([[("a", 0.9), ("b", 0.1)], [("c", 3.0), ("b", 1.0)]], [1.0, 1.0]))
    assert only_text["c"] == pytest.approx(1.0) and only_text["a"] == pytest.approx(1.0)
    assert zscore([[("x", 3.0)], []], [0.5, 0.5]) == [("x", 0.5)]  # a lone candidate counts as 1
    weighted = [k for k, _ in zscore([[("a", 0.9), ("b", 0.1)], [("b", 5.0), ("a", 1.0)]], [1.0, 2.0])]
    assert weighted == ["b", "a"]


def test_zscore_fusion_does_not_reward_the_worst_of_a_ranking() -> None:
    # "c" is the vector ranking's worst candidate and the text ranking's best: min-max fusion
    # puts it level with "a" (0 + 1); z-scores count how far below its ranking's mean it is
    vec = [("a", 0.9), ("b", 0.5), ("c", 0.1)]
    text = [("c", 5.0), ("d", 4.9), ("e", 0.1)]
    by_linear = [k for k, _ in fuse(vec, text, "linear", (1.0, 1.0))]
    by_z = [k for k, _ in fuse(vec, text, "zscore", (1.0, 1.0))]
    assert by_linear[:2] == ["a", "c"]
    assert by_z == ["a", "d", "b", "c", "e"]


def test_fuse_with_a_zero_weight_keeps_the_other_ranking() -> None:
    vec = [("a", 0.9), ("b", 0.8), ("c", 0.7)]
    text = [("c", 5.0), ("d", 4.0)]
    assert [k for k, _ in fuse(vec, text, "rrf", (1.0, 0.0))][:3] == ["a", "b", "c"]
    assert [k for k, _ in fuse(vec, text, "rrf", (0.0, 1.0))][:2] == ["c", "d"]


@pytest.mark.parametrize(
    ("fusion", "weights", "message"),
    [
        ("borda", (1, 1), "unknown fusion"),
        ("rrf", (1,), "pair"),
        ("rrf", "ab", "pair"),
        ("rrf", (1, -1), ">= 0"),
        ("rrf", (float("nan"), 1), ">= 0"),
        ("rrf", (0, 0), "both be 0"),
        ("linear", (True, 1), ">= 0"),
    ],
)
def test_bad_fusion_settings_are_refused(
    kind: str, tmp_path: Path, fusion: str, weights: Any, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        make(kind, tmp_path, fusion=fusion, weights=weights)
    store, emb, _ = filled(kind, tmp_path)
    with pytest.raises(ConfigError, match=message):
        store.search(emb.embed_query("receipt"), "receipt", mode="hybrid", fusion=fusion, weights=weights)


# -- modes ---------------------------------------------------------------------


def test_each_mode_scores_as_documented(kind: str, tmp_path: Path) -> None:
    store, emb, chunks = filled(kind, tmp_path)
    q = emb.embed_query(TEXTS[2])
    vec = store.search(q, k=6)
    assert vec[0].chunk_id == chunks[2].id and vec[0].score == pytest.approx(1.0, abs=1e-4)
    assert all(-1.0001 <= h.score <= 1.0001 for h in vec)
    text = store.search(query_text="receipt", k=6, mode="text")
    assert {h.chunk_id for h in text} == {chunks[0].id, chunks[2].id}  # only chunks holding the term
    assert all(h.score > 0 for h in text)
    hyb = store.search(q, "refund receipt order", k=6, mode="hybrid", fusion="linear")  # weights (1, 1)
    assert hyb[0].chunk_id == chunks[2].id
    assert hyb[0].score == pytest.approx(2.0)  # first in both rankings: 1 * 1 + 1 * 1
    assert all(0 <= h.score <= 2.0 + 1e-9 for h in hyb)
    rrf_hits = store.search(q, "refund receipt order", k=6, mode="hybrid", fusion="rrf", weights=(1, 1))
    assert rrf_hits[0].chunk_id == chunks[2].id
    assert rrf_hits[0].score == pytest.approx(2 / 61)
    assert all(h.score <= 2 / 61 + 1e-12 for h in rrf_hits)
    assert store.search(q, "refund receipt order", k=6, mode="hybrid") == hyb  # the default: linear (1, 1)
    z_hits = store.search(q, "refund receipt order", k=6, mode="hybrid", fusion="zscore")
    assert z_hits[0].chunk_id == chunks[2].id
    assert z_hits[0].score > 1.0  # above both rankings' means
    for hits in (vec, text, hyb, rrf_hits, z_hits):
        assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_hybrid_weights_and_linear_fusion(kind: str, tmp_path: Path) -> None:
    store, emb, chunks = filled(kind, tmp_path)
    q = emb.embed_query("verify the email before login")
    vec = [h.chunk_id for h in store.search(q, k=6)]
    text = [h.chunk_id for h in store.search(query_text="shelves Monday", k=6, mode="text")]
    vec_only = store.search(q, "shelves Monday", k=6, mode="hybrid", weights=(1, 0))
    assert [h.chunk_id for h in vec_only] == vec
    text_first = store.search(q, "shelves Monday", k=6, mode="hybrid", weights=(0, 1))
    assert [h.chunk_id for h in text_first][: len(text)] == text
    for fusion in ("zscore", "linear"):
        half = store.search(q, "shelves Monday", k=6, mode="hybrid", fusion=fusion, weights=(0.5, 0.5))
        full = store.search(q, "shelves Monday", k=6, mode="hybrid", fusion=fusion, weights=(1, 1))
        assert [h.chunk_id for h in half] == [h.chunk_id for h in full]  # only the ratio matters
        assert [h.score * 2 for h in half] == pytest.approx([h.score for h in full])
    for fusion in ("rrf", "linear", "zscore"):
        a = store.search(q, "shelves Monday", k=6, mode="hybrid", fusion=fusion, weights=(1, 0.5))
        b = store.search(q, "shelves Monday", k=6, mode="hybrid", fusion=fusion, weights=(2, 1))
        assert [h.chunk_id for h in a] == [h.chunk_id for h in b]
    lin = store.search(
        emb.embed_query(TEXTS[2]), "refund receipt order", k=6, mode="hybrid", fusion="linear", weights=(1, 1)
    )
    assert lin[0].chunk_id == chunks[2].id and lin[0].score == pytest.approx(2.0)
    assert all(0.0 <= h.score <= 2.0 + 1e-9 for h in lin)


def test_store_level_fusion_defaults(kind: str, tmp_path: Path) -> None:
    store, emb, chunks = filled(kind, tmp_path, fusion="rrf", weights=(0.5, 0.5))
    q = emb.embed_query(TEXTS[2])
    hits = store.search(q, "refund receipt order", k=3, mode="hybrid")
    assert hits[0].chunk_id == chunks[2].id and hits[0].score == pytest.approx(1 / 61)
    hits = store.search(q, "refund receipt order", k=3, mode="hybrid", weights=(1, 1))
    assert hits[0].score == pytest.approx(2 / 61)  # a per-call value wins
    hits = store.search(q, "refund receipt order", k=3, mode="hybrid", fusion="linear")
    assert hits[0].score == pytest.approx(1.0)  # linear with the store's weights (0.5, 0.5)


@pytest.mark.parametrize("query", ODD_QUERIES, ids=lambda q: repr(q)[:20])
def test_odd_text_queries_never_raise(kind: str, tmp_path: Path, query: str) -> None:
    store, emb, chunks = filled(kind, tmp_path)
    hits = store.search(query_text=query, k=5, mode="text")
    assert all(h.score > 0 for h in hits)
    hybrid = store.search(emb.embed_query(query), query, k=5, mode="hybrid")
    assert len(hybrid) == 5  # the vector side always contributes
    if "receipt" in query.lower():
        assert chunks[0].id in {h.chunk_id for h in hits} or chunks[2].id in {h.chunk_id for h in hits}


def test_syntax_words_are_plain_words(kind: str, tmp_path: Path) -> None:
    store, _, chunks = filled(kind, tmp_path)
    # "NOT orders" does not exclude; a field prefix does not restrict; quotes do not make a phrase
    hits = {h.chunk_id for h in store.search(query_text="NOT orders", k=6, mode="text")}
    assert chunks[1].id in hits
    hits = {h.chunk_id for h in store.search(query_text='"gift cash"', k=6, mode="text")}
    assert hits == {chunks[5].id}


# -- full-text index upkeep (LanceDB) -------------------------------------------


def test_fts_sees_rows_added_after_the_index_and_forgets_deleted_ones(tmp_path: Path) -> None:
    store, emb, chunks = filled("lancedb", tmp_path)
    extra = chunks_of(["Loyalty points expire after twelve months."], source="loyalty.md")
    store.add(extra, emb.embed_documents([c.text for c in extra]))
    state = store.index_state()
    assert state is not None and state.fts and state.fts_unindexed > 0  # not folded in yet ...
    assert [h.chunk_id for h in store.search(query_text="loyalty", k=3, mode="text")] == [extra[0].id]
    store.optimize()  # ... now it is, and nothing changes for the searcher
    state = store.index_state()
    assert state is not None and state.fts_unindexed == 0 and state.rows == len(chunks) + 1
    assert [h.chunk_id for h in store.search(query_text="loyalty", k=3, mode="text")] == [extra[0].id]
    assert store.delete(extra[0].doc_id) == 1
    assert store.search(query_text="loyalty", k=3, mode="text") == []
    # a chunk replaced under the same id is found by its new words only
    changed = Chunk(
        **{**{f: getattr(chunks[4], f) for f in Chunk.__slots__}, "text": "Forklifts need a licence."}
    )
    store.add([changed], emb.embed_documents([changed.text]))
    assert [h.chunk_id for h in store.search(query_text="forklifts", k=3, mode="text")] == [changed.id]
    assert store.search(query_text="shelves", k=3, mode="text") == []


def test_fts_index_is_rebuilt_for_a_collection_without_one(tmp_path: Path) -> None:
    store, _, chunks = filled("lancedb", tmp_path)
    table, _ = store._require()
    for idx in list(table.list_indices()):
        if idx.index_type == "FTS":
            table.drop_index(idx.name)
    fresh = LanceDBStore(tmp_path / "db")
    assert [h.chunk_id for h in fresh.search(query_text="warehouse", k=3, mode="text")] == [chunks[4].id]
    state = fresh.index_state()
    assert state is not None and state.fts


def test_optimize_on_a_missing_collection(tmp_path: Path) -> None:
    with pytest.raises(CollectionNotFoundError):
        LanceDBStore(tmp_path / "db").optimize()
    assert LanceDBStore(tmp_path / "db").index_state() is None


def test_query_vector_shape_is_checked(kind: str, tmp_path: Path) -> None:
    store, emb, _ = filled(kind, tmp_path)
    assert len(store.search(emb.embed_query("x")[None, :], k=2)) == 2  # (1, dim) is accepted
    with pytest.raises(ConfigError, match="NaN"):
        store.search(np.full(64, np.nan, dtype=np.float32), k=2)


# -- a larger k extends a smaller k's results ---------------------------------------------


_WORDS = ["refund", "receipt", "order", "shipping", "invoice", "warehouse", "policy", "customer", "days"]


def _handbook() -> str:
    """A Markdown handbook of many short sections whose words overlap (for hundreds of chunks)."""
    parts = []
    for s in range(60):
        parts.append(f"## Section {s}\n")
        for p in range(3):
            words = [_WORDS[(s * 7 + p * 3 + i * i) % len(_WORDS)] for i in range(9)]
            parts.append(f"The {' '.join(words)} rule number {s}-{p} applies here. It ends now.\n")
    return "# Handbook\n\n" + "\n".join(parts)


@pytest.fixture(scope="module")
def handbook_pipeline(tmp_path_factory: pytest.TempPathFactory) -> Any:
    import sectionrag
    from sectionrag.pipeline import Pipeline

    folder = tmp_path_factory.mktemp("handbook")
    (folder / "handbook.md").write_text(_handbook(), encoding="utf-8")
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", inner="recursive", size=40, fine=0.5),
        embedder=HashEmbedder(dimension=32),
        store=InMemoryStore(),
    )
    report = pipe.ingest([folder])
    assert report.chunks > 150  # more than the 50 candidates a side that hybrid search fuses first
    return pipe


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    small=st.integers(min_value=1, max_value=12),
    more=st.integers(min_value=1, max_value=60),
    query=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join),
    mode=st.sampled_from(["hybrid", "vector", "text"]),
    rerank=st.booleans(),
)
def test_a_larger_k_extends_the_results_of_a_smaller_one(
    handbook_pipeline: Any, small: int, more: int, query: str, mode: str, rerank: bool
) -> None:
    # what a caller reads first must not depend on how many results it asked for
    pipe = handbook_pipeline
    few = pipe.search(query, k=small, mode=mode, rerank=rerank)
    many = pipe.search(query, k=small + more, mode=mode, rerank=rerank)
    assert [h.chunk_id for h in many[: len(few)]] == [h.chunk_id for h in few]
    assert len(many) >= len(few)


# -- a budget of characters ------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    budget=st.integers(min_value=1, max_value=3000),
    more=st.integers(min_value=0, max_value=3000),
    query=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join),
    mode=st.sampled_from(["hybrid", "vector", "text"]),
)
def test_a_budget_returns_the_best_results_that_fit_and_a_larger_one_extends_them(
    handbook_pipeline: Any, budget: int, more: int, query: str, mode: str
) -> None:
    pipe = handbook_pipeline
    got = pipe.search(query, mode=mode, max_chars=budget)
    ranking = pipe.search(query, k=50, mode=mode)
    assert got, "the best result comes back even when it alone passes the budget"
    # the leading results of the unbudgeted ranking, no more and no fewer than fit
    assert [h.chunk_id for h in got] == [h.chunk_id for h in ranking[: len(got)]]
    used = sum(len(h.text) for h in got)
    assert used <= budget or len(got) == 1
    if len(got) < len(ranking):
        assert used + len(ranking[len(got)].text) > budget
    larger = pipe.search(query, mode=mode, max_chars=budget + more)
    assert [h.chunk_id for h in larger[: len(got)]] == [h.chunk_id for h in got]


def test_k_caps_a_budget_and_a_budget_caps_k(handbook_pipeline: Any) -> None:
    pipe = handbook_pipeline
    assert len(pipe.search("refund policy", k=2, max_chars=100_000)) == 2
    assert len(pipe.search("refund policy", max_chars=100_000)) == 50  # MAX_CHARS_RESULTS
    assert len(pipe.search("refund policy")) == 5  # DEFAULT_K without a budget
    one = pipe.search("refund policy", k=20, max_chars=1)
    assert len(one) == 1 and len(one[0].text) > 1


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "100"])
def test_a_budget_that_is_not_a_positive_whole_number_is_refused(handbook_pipeline: Any, bad: Any) -> None:
    with pytest.raises(ConfigError, match="max_chars"):
        handbook_pipeline.search("refund", max_chars=bad)
