"""LLMEnricher against a real chat-completions server on 127.0.0.1: fields, failures, retries, cache."""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time

import pytest

from _chat_server import ChatServer, Reply, good_answer
from sectionrag.enrich import (
    LLMEnricher,
    LLMError,
    MemoryCache,
    OpenAICompatibleLLM,
    SQLiteCache,
    cache_key,
)
from sectionrag.enrich.prompts import PROMPT_VERSION, MalformedResponseError, build_prompt, parse_response
from sectionrag.errors import ConfigError
from sectionrag.pipeline import Pipeline
from sectionrag.protocols import Enricher
from sectionrag.testing import FakeLLM, HashEmbedder, InMemoryStore
from sectionrag.tokenizers import WordTokenizer
from sectionrag.types import FINE, Chunk, Document

PARAGRAPHS = [
    "Harborview Freight reported revenue of $4.2 billion for fiscal 2025, up 12% on the prior year.",
    "[[429]] The warehouse network expanded to fourteen regional depots during the reporting period.",
    "[[malformed-once]] Customer churn declined because onboarding became considerably faster.",
    "[[malformed]] Quarterly dividends were suspended while the refinancing was negotiated.",
    "[[500]] Litigation with a former reseller remains unresolved at the balance sheet date.",
    "[[badbody]] Employee headcount reached 2,310 people at December 31, 2025 across all offices.",
]


class ParagraphChunker:
    """One chunk per paragraph (a real chunker would do; this keeps the texts exact)."""

    def chunk(self, document: Document) -> list[Chunk]:
        chunks, start, tok = [], 0, WordTokenizer()
        for i, para in enumerate(document.text.split("\n\n")):
            end = start + len(para)
            chunks.append(document.make_chunk(i, start, end, token_count=tok.count_tokens(para)))
            start = end + 2
        return chunks


def make_doc(paragraphs: list[str] = PARAGRAPHS, source: str = "report.md") -> Document:
    return Document.create("\n\n".join(paragraphs), source=source)


def enricher(server: ChatServer, **kw: object) -> LLMEnricher:
    llm = OpenAICompatibleLLM(server.url, "tiny", timeout=kw.pop("timeout", 2.0))  # type: ignore[arg-type]
    kw.setdefault("backoff", 0.01)
    kw.setdefault("max_retries", 2)
    return LLMEnricher(llm, **kw)  # type: ignore[arg-type]


def by_marker(chunks: list[Chunk]) -> dict[str, Chunk]:
    out = {}
    for c in chunks:
        marker = c.text.split("]]")[0].lstrip("[") if c.text.startswith("[[") else "good"
        out[marker] = c
    return out


def test_fields_failures_and_retries_per_chunk() -> None:
    doc = make_doc()
    chunks = ParagraphChunker().chunk(doc)
    with ChatServer() as server:
        enr = enricher(server, concurrency=3)
        assert isinstance(enr, Enricher)
        out = by_marker(enr.enrich(chunks, doc))
    assert len(out) == len(PARAGRAPHS)

    good = out["good"].metadata
    assert good["summary"] == "Summary: Harborview Freight reported revenue of $4."
    assert good["questions"][0].startswith("What about ")  # numbering stripped
    assert good["categories"] == ["finance"] and good["keywords"] == ["quokka synonym"]
    assert good["organizations"] == ["Zephyrine Holdings"]
    assert good["entities"] == ["Zephyrine Holdings", "Lisbon"]
    assert good["fiscal_periods"] == ["FY2025"] and good["years"] == [2025]  # regex metadata as well
    assert good["amounts"][0]["value"] == 4.2e9 and good["percentages"] == [12.0]
    assert good["enriched_by"] == f"llm:openai:tiny@{server.url}/p{PROMPT_VERSION}"
    assert "enrichment_error" not in good

    # 429 then success; malformed once then success: both fully enriched
    for marker in ("429", "malformed-once"):
        assert "summary" in out[marker].metadata and "enrichment_error" not in out[marker].metadata
    assert server.attempts[out["429"].text] == 2
    assert server.attempts[out["malformed-once"].text] == 2

    # malformed twice: retried once, then recorded
    bad = out["malformed"].metadata
    assert "summary" not in bad and "malformed" in bad["enrichment_error"]
    assert server.attempts[out["malformed"].text] == 2
    # 500: retried max_retries times, then recorded with the status
    err = out["500"].metadata["enrichment_error"]
    assert "HTTP 500" in err and "after 3 attempts" in err
    assert server.attempts[out["500"].text] == 3
    # an unreadable body counts as malformed
    assert "not a chat-completions response" in out["badbody"].metadata["enrichment_error"]
    # a failed chunk keeps its text, span and regex metadata
    failed = out["badbody"]
    assert failed.text == doc.text[failed.start : failed.end]
    assert failed.metadata["dates"] == ["2025-12-31"]
    assert enr.stats.failed == 3 and enr.stats.chunks == 6
    assert enr.stats.retries >= 3 and enr.stats.malformed >= 4


def test_hang_past_timeout_is_recorded_and_bounded() -> None:
    doc = make_doc(
        ["[[hang]] The archive of board minutes was digitised in one long weekend.", PARAGRAPHS[0]]
    )
    chunks = ParagraphChunker().chunk(doc)
    with ChatServer() as server:
        enr = enricher(server, timeout=0.3, max_retries=1, concurrency=2)
        started = time.perf_counter()
        out = by_marker(enr.enrich(chunks, doc))
        elapsed = time.perf_counter() - started
    assert "no response within 0.3 s" in out["hang"].metadata["enrichment_error"]
    assert server.attempts[out["hang"].text] == 2  # one retry
    assert "summary" in out["good"].metadata
    assert elapsed < server.hang_seconds * 2  # bounded by the client timeout, not the server


def test_cache_prevents_a_second_call(tmp_path: pytest.TempPathFactory) -> None:
    doc = make_doc([PARAGRAPHS[0], "Freight volumes grew in every region except the northern corridor."])
    chunks = ParagraphChunker().chunk(doc)
    path = tmp_path / "cache.sqlite3"  # type: ignore[operator]
    with ChatServer() as server:
        with SQLiteCache(path) as cache:
            first = enricher(server, cache=cache).enrich(chunks, doc)
            assert len(server.requests) == 2 and len(cache) == 6  # 3 fields x 2 chunks
        with SQLiteCache(path) as cache:  # a new process would see the same file
            again = enricher(server, cache=cache)
            second = again.enrich(chunks, doc)
            assert len(server.requests) == 2
            assert again.stats.cached == 2 and again.stats.calls == 0
            assert again.estimate(chunks).calls == 0
        # a changed chunk text means one new call; the unchanged one stays cached
        doc2 = make_doc([PARAGRAPHS[0], "Freight volumes fell in every region except the northern corridor."])
        with SQLiteCache(path) as cache:
            enricher(server, cache=cache).enrich(ParagraphChunker().chunk(doc2), doc2)
        assert len(server.requests) == 3
    assert [dict(c.metadata) for c in first] == [dict(c.metadata) for c in second]


def test_cache_is_per_field_prompt_version_and_model() -> None:
    doc = make_doc([PARAGRAPHS[0]])
    chunks = ParagraphChunker().chunk(doc)
    cache = MemoryCache()
    with ChatServer() as server:
        enricher(server, cache=cache, fields=("summary",)).enrich(chunks, doc)
        assert len(server.requests) == 1
        # asking for more fields later sends only the missing ones
        enricher(server, cache=cache).enrich(chunks, doc)
        assert len(server.requests) == 2
        last = server.prompts()[-1]
        assert '"questions"' in last and '"metadata"' in last and '"summary"' not in last
        # another model name is another key
        enricher(server, cache=cache, model="other").enrich(chunks, doc)
        assert len(server.requests) == 3
    k = cache_key("x", "summary", PROMPT_VERSION, "m")
    assert k != cache_key("x", "summary", PROMPT_VERSION + "x", "m") != cache_key("y", "summary", "1", "m")


def test_min_tokens_and_estimate() -> None:
    short = "Tiny note."
    doc = make_doc([short, PARAGRAPHS[0], "Another paragraph about the company's depots and their freight."])
    chunks = ParagraphChunker().chunk(doc)
    with ChatServer() as server:
        enr = enricher(server, min_tokens=5, cache=MemoryCache())
        est = enr.estimate(chunks)
        assert (est.chunks, est.calls, est.skipped, est.cached) == (3, 2, 1, 0)
        assert est.output_tokens == 2 * enr.max_tokens
        prompt = build_prompt(chunks[1].text, context="report.md")
        assert est.input_tokens > len(prompt) // 4  # two prompts of about that size
        assert server.requests == []  # estimating sends nothing
        out = enr.enrich(chunks, doc)
        assert len(server.requests) == 2
        assert "summary" not in out[0].metadata and "enrichment_error" not in out[0].metadata
        est2 = enr.estimate(chunks)
        assert (est2.calls, est2.cached, est2.skipped) == (0, 2, 1)
        assert (est + est2).chunks == 6 and set(est.to_dict()) >= {"calls", "input_tokens"}


def test_fine_chunks_are_not_sent_but_keep_their_regex_metadata() -> None:
    doc = make_doc([PARAGRAPHS[0], "Revenue for fiscal 2024 rose 12% to $4.1 billion."])
    chunks = ParagraphChunker().chunk(doc)
    fine = dataclasses.replace(chunks[1], index=2, metadata={FINE: True})
    with ChatServer() as server:
        enr = enricher(server, cache=MemoryCache())
        est = enr.estimate([*chunks, fine])
        assert (est.chunks, est.calls, est.skipped) == (3, 2, 1)
        out = enr.enrich([*chunks, fine], doc)
        assert len(server.requests) == 2
    assert "summary" in out[1].metadata and "summary" not in out[2].metadata
    assert out[2].fine and out[2].metadata["percentages"] == out[1].metadata["percentages"]
    assert "enrichment_error" not in out[2].metadata


def test_fatal_status_stops_sending() -> None:
    doc = make_doc([f"Paragraph number {i} about freight depots and revenue." for i in range(6)])
    chunks = ParagraphChunker().chunk(doc)
    with ChatServer(lambda payload, server: Reply(401)) as server:
        out = enricher(server, concurrency=1).enrich(chunks, doc)
    assert len(server.requests) == 1  # the first 401 stops the rest
    assert "HTTP 401" in out[0].metadata["enrichment_error"]
    assert all("not sent" in c.metadata["enrichment_error"] for c in out[1:])
    assert all("HTTP 401" in c.metadata["enrichment_error"] for c in out[1:])


def test_consecutive_failures_trip_the_breaker() -> None:
    doc = make_doc([f"Paragraph number {i} about freight depots and revenue." for i in range(8)])
    chunks = ParagraphChunker().chunk(doc)
    with ChatServer(lambda payload, server: Reply(500)) as server:
        out = enricher(server, concurrency=1, max_retries=0, max_consecutive_failures=3).enrich(chunks, doc)
    assert len(server.requests) == 3
    assert all("enrichment_error" in c.metadata for c in out)
    assert "3 chunks failed in a row" in out[-1].metadata["enrichment_error"]


def test_concurrency_is_bounded() -> None:
    active = 0
    peak = 0
    lock = threading.Lock()

    def slow(payload: dict, server: ChatServer) -> Reply:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.05)
        with lock:
            active -= 1
        return Reply(content=good_answer(payload["messages"][-1]["content"]))

    doc = make_doc(
        [f"Paragraph {i}: freight depots, revenue and logistics in the region." for i in range(10)]
    )
    with ChatServer(slow) as server:
        out = enricher(server, concurrency=3).enrich(ParagraphChunker().chunk(doc), doc)
    assert len(server.requests) == 10 and all("summary" in c.metadata for c in out)
    assert 1 < peak <= 3


def test_failures_are_logged_once_without_secrets(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-never-logged")
    doc = make_doc([PARAGRAPHS[4]])
    with ChatServer() as server, caplog.at_level(logging.DEBUG):
        enricher(server, max_retries=0).enrich(ParagraphChunker().chunk(doc), doc)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "1 of 1 chunks of report.md" in warnings[0].getMessage()
    assert all("sk-secret" not in r.getMessage() for r in caplog.records)


def test_pipeline_indexes_every_chunk_with_its_enrichment() -> None:
    doc = make_doc()
    store = InMemoryStore()
    with ChatServer() as server:
        pipe = Pipeline(
            chunker=ParagraphChunker(), embedder=HashEmbedder(), store=store, enricher=enricher(server)
        )
        report = pipe.ingest([doc])
    assert report.ok and report.chunks == len(PARAGRAPHS)
    stored = store.chunks()
    assert len(stored) == len(PARAGRAPHS)
    assert sum("enrichment_error" in c.metadata for c in stored) == 3
    # every chunk is searchable, enriched or not
    for c in stored:
        hits = pipe.search(c.text, k=1)
        assert hits[0].chunk_id == c.id
        assert dict(hits[0].metadata) == dict(c.metadata)


def test_fake_llm_and_custom_errors() -> None:
    doc = make_doc([PARAGRAPHS[0], "Second paragraph about regional depots and freight."])
    chunks = ParagraphChunker().chunk(doc)
    fake = FakeLLM(lambda prompt: "```json\n" + good_answer(prompt) + "\n```")
    out = LLMEnricher(fake, fields=("summary", "questions"), extractive_metadata=False).enrich(chunks, doc)
    assert all(c.metadata["summary"].startswith("Summary:") for c in out)
    assert "years" not in out[0].metadata and "metadata" not in fake.prompts[0].split("Keys:")[-1]
    assert fake.max_tokens == [512, 512]

    def broken(prompt: str) -> str:
        raise RuntimeError("adapter bug")

    out = LLMEnricher(FakeLLM(broken), backoff=0).enrich(chunks, doc)
    assert all(c.metadata["enrichment_error"] == "adapter bug" for c in out)

    calls = []

    def flaky(prompt: str) -> str:
        calls.append(prompt)
        if len(calls) == 1:
            raise LLMError("busy", status=503, retryable=True, retry_after=0)
        return good_answer(prompt)

    out = LLMEnricher(FakeLLM(flaky), concurrency=1, backoff=0).enrich(chunks[:1], doc)
    assert "summary" in out[0].metadata and len(calls) == 2


def test_embed_summary_changes_the_embedded_text_only() -> None:
    doc = make_doc([PARAGRAPHS[0]])
    chunk = ParagraphChunker().chunk(doc)[0]
    fake = FakeLLM(good_answer)
    out = LLMEnricher(fake, embed_summary=True, tokenizer=WordTokenizer()).enrich([chunk], doc)[0]
    assert out.text == chunk.text and (out.start, out.end, out.id) == (chunk.start, chunk.end, chunk.id)
    assert out.embed_text == out.metadata["summary"] + "\n" + chunk.text
    assert out.token_count == WordTokenizer().count_tokens(out.embed_text)


def test_bad_arguments() -> None:
    fake = FakeLLM("{}")
    with pytest.raises(TypeError):
        LLMEnricher(object())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="summary"):
        LLMEnricher(fake, fields=("summary", "sentiment"))
    with pytest.raises(ConfigError):
        LLMEnricher(fake, fields="summary")
    with pytest.raises(ConfigError, match="concurrency"):
        LLMEnricher(fake, concurrency=0)
    with pytest.raises(TypeError):
        LLMEnricher(fake, cache={})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        LLMEnricher(fake).enrich(["not a chunk"], None)  # type: ignore[list-item]


@pytest.mark.parametrize(
    "raw",
    [
        "no json here",
        "[1, 2]",
        '{"summary": "s", "questions": ["q?"]}',  # metadata missing
        '{"summary": 3, "questions": [], "metadata": {}}',
        '{"summary": "s", "questions": [], "metadata": []}',
        '{"summary": "s", "questions": 7, "metadata": {}}',
        '{"summary": "s", "questions": [], "metadata": {',
    ],
)
def test_parse_response_rejects_malformed(raw: str) -> None:
    with pytest.raises(MalformedResponseError):
        parse_response(raw)


def test_parse_response_normalises() -> None:
    raw = (
        "Here you go:\n```json\n"
        + json.dumps(
            {
                "summary": "  Revenue   grew.\n",
                "questions": "1. What grew?\n- Why?\n\n",
                "metadata": {"organizations": ["Acme", "Acme", 5, None], "categories": "finance"},
                "extra": 1,
            }
        )
        + "\n```"
    )
    out = parse_response(raw, max_questions=1)
    assert out["summary"] == "Revenue grew."
    assert out["questions"] == ["What grew?"]
    assert out["metadata"]["organizations"] == ["Acme", "5"]
    assert out["metadata"]["categories"] == ["finance"] and out["metadata"]["people"] == []
    with pytest.raises(ConfigError):
        build_prompt("x", fields=("sentiment",))
