"""Sentence-window re-ranking of the best hybrid results."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sectionrag import Document, Pipeline
from sectionrag._rerank import POOL, sentence_rerank, sentence_windows
from sectionrag.pipeline import search_store
from sectionrag.stores import InMemoryStore
from sectionrag.testing import HashEmbedder
from sectionrag.types import SearchResult

EMB = HashEmbedder(dimension=256)
QUERY = "the admiral was a hale hearty well-looking man"
# the answer is one sentence among others about something else
ANSWER = (
    "The weather turned cold in the evening. Mary stayed at the cottage with the children. "
    "The admiral was a hale hearty well-looking man. Dinner was late that day. "
    "The carriage came for them at nine o'clock."
)
# shares the query's words thinly, spread over the whole chunk
DECOY = (
    "A man came to the house. He was well dressed. The looking glass was hale and old. "
    "The admiral's letter said he was hearty. Nobody knew what the man wanted."
)


def _result(text: str, score: float, rank: int, source: str) -> SearchResult:
    return SearchResult(
        rank=rank,
        score=score,
        text=text,
        doc_id=source,
        source=source,
        section_path=(),
        page_start=None,
        page_end=None,
        start=0,
        end=len(text),
        chunk_id=source,
    )


def test_windows_are_runs_of_two_sentences() -> None:
    assert sentence_windows("One here. Two here. Three here.") == [
        "One here. Two here.",
        "Two here. Three here.",
    ]
    assert sentence_windows("Only one sentence here.") == ["Only one sentence here."]
    assert sentence_windows("One. Two.") == ["One. Two."]
    assert sentence_windows("   ") == []


def test_a_result_holding_the_answer_in_one_window_moves_up() -> None:
    q = EMB.embed_query(QUERY)
    results = [_result(DECOY, 1.50, 1, "decoy"), _result(ANSWER, 1.45, 2, "answer")]
    out = sentence_rerank(results, q, EMB, k=2)
    assert [r.source for r in out] == ["answer", "decoy"]
    assert [r.rank for r in out] == [1, 2]
    assert out[0].score == pytest.approx(1.45 + 0.3) and out[1].score == pytest.approx(1.50)
    # spans and texts are the results' own
    assert [(r.start, r.end, r.text) for r in out] == [(0, len(ANSWER), ANSWER), (0, len(DECOY), DECOY)]
    # a large lead in the fused score is not overturned: the bonus is at most 0.3
    far = sentence_rerank([_result(DECOY, 1.9, 1, "decoy"), _result(ANSWER, 1.45, 2, "answer")], q, EMB, k=2)
    assert [r.source for r in far] == ["decoy", "answer"]


def test_only_the_pool_is_reranked_and_k_cuts() -> None:
    q = EMB.embed_query(QUERY)
    results = [_result(DECOY, 2.0 - i / 100, i + 1, f"d{i}") for i in range(POOL)]
    results.append(_result(ANSWER, 0.1, POOL + 1, "answer"))  # below the pool: stays below it
    out = sentence_rerank(results, q, EMB, k=POOL + 1)
    assert out[-1].source == "answer" and out[-1].rank == POOL + 1
    assert len(sentence_rerank(results, q, EMB, k=3)) == 3
    single = sentence_rerank(results[:1], q, EMB, k=5)
    assert [(r.source, r.score, r.rank) for r in single] == [("d0", 2.0, 1)]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.text(min_size=1, max_size=80), st.floats(0, 2)), min_size=0, max_size=14),
    st.integers(1, 15),
)
def test_rerank_keeps_the_results_and_their_spans(items: list[tuple[str, float]], k: int) -> None:
    results = [_result(t, s, i + 1, f"s{i}") for i, (t, s) in enumerate(items)]
    out = sentence_rerank(results, EMB.embed_query("some query words"), EMB, k=k)
    assert len(out) == min(k, len(results))
    assert [r.rank for r in out] == list(range(1, len(out) + 1))
    by_id = {r.chunk_id: r for r in results}
    for r in out:
        assert dataclasses.replace(r, rank=0, score=0.0) == dataclasses.replace(
            by_id[r.chunk_id], rank=0, score=0.0
        )
        assert by_id[r.chunk_id].score <= r.score <= by_id[r.chunk_id].score + 0.3 + 1e-9
    assert len({r.chunk_id for r in out}) == len(out)


def _store() -> InMemoryStore:
    store = InMemoryStore()
    store.ensure_collection(EMB.name, EMB.dimension)
    docs = [Document.create(ANSWER, source="answer.txt"), Document.create(DECOY, source="decoy.txt")]
    chunks = [d.make_chunk(0, 0, len(d.text), token_count=40) for d in docs]
    store.add(chunks, EMB.embed_documents([c.text for c in chunks]))
    return store


def test_search_reranks_hybrid_results_when_asked_and_only_hybrid() -> None:
    store = _store()
    plain = search_store(store, QUERY, embedder=EMB, k=2)  # off by default
    ranked = search_store(store, QUERY, embedder=EMB, k=2, rerank=True)
    q = EMB.embed_query(QUERY)
    assert plain == store.search(q, QUERY, k=2, mode="hybrid")
    assert ranked == sentence_rerank(store.search(q, QUERY, k=POOL, mode="hybrid"), q, EMB, 2)
    assert {r.source for r in plain} == {r.source for r in ranked} == {"answer.txt", "decoy.txt"}
    before = {r.source: r.score for r in plain}
    assert all(before[r.source] <= r.score <= before[r.source] + 0.3 + 1e-9 for r in ranked)
    assert max(r.score - before[r.source] for r in ranked) == pytest.approx(0.3)
    pipe = Pipeline(chunker=None, embedder=EMB, store=store)  # type: ignore[arg-type]
    assert pipe.search(QUERY, k=2, rerank=True) == ranked
    assert pipe.search(QUERY, k=2) == pipe.search(QUERY, k=2, rerank=False) == plain
    # vector and text modes are the store's own rankings
    assert search_store(store, QUERY, embedder=EMB, k=2, mode="vector", rerank=True) == store.search(
        EMB.embed_query(QUERY), QUERY, k=2, mode="vector"
    )
    assert search_store(store, QUERY, k=2, mode="text") == store.search(query_text=QUERY, k=2, mode="text")
    with pytest.raises(TypeError, match="rerank must be a bool"):
        search_store(store, QUERY, embedder=EMB, rerank="yes")  # type: ignore[arg-type]
