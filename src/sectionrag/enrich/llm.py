"""LLM enrichment: a summary, questions and entities for each chunk, from any LLM adapter.

One call per chunk asks for every requested field as a JSON object (see
:mod:`sectionrag.enrich.prompts`). Around that call:

- **cache**: each field is cached under (chunk text hash, field, prompt
  version, model); a chunk whose fields are all cached calls nothing.
- **retries**: :class:`~sectionrag.enrich.LLMError` with ``retryable`` (rate
  limits, server errors, timeouts) is retried up to ``max_retries`` times with
  exponential backoff (or the server's ``Retry-After``); a malformed answer is
  asked again ``json_retries`` times, then recorded as a failure.
- **failures are per chunk, never fatal**: the chunk keeps its text and
  regex metadata, gets ``enrichment_error``, and is indexed like any other.
  After ``max_consecutive_failures`` chunks fail in a row, or on an error
  that no retry can fix (HTTP 401, 403, 404), the remaining chunks are not
  sent and carry the reason instead.
- **bounded concurrency**: at most ``concurrency`` calls at once.
- **selective**: chunks under ``min_tokens`` are not sent, nor fine chunks
  (``Chunk.fine``: their text is inside the regular chunks, which are sent).
- **estimate**: :meth:`LLMEnricher.estimate` counts calls and tokens first.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from sectionrag._checks import check_int
from sectionrag.enrich._apply import apply_enrichment, with_tokenizer
from sectionrag.enrich.adapters import LLMError, LLMResponseError
from sectionrag.enrich.cache import EnrichmentCache, cache_key
from sectionrag.enrich.metadata import extract_metadata
from sectionrag.enrich.prompts import (
    LLM_FIELDS,
    METADATA_LISTS,
    PROMPT_VERSION,
    MalformedResponseError,
    build_prompt,
    parse_response,
)
from sectionrag.errors import ConfigError
from sectionrag.protocols import LLM
from sectionrag.types import Chunk, Document

if TYPE_CHECKING:
    from sectionrag.protocols import TokenCounter

__all__ = ["EnrichmentEstimate", "EnrichmentStats", "LLMEnricher"]

logger = logging.getLogger(__name__)

#: statuses no retry can fix and that every other call would hit too
_FATAL_STATUSES = (401, 403, 404)
_CHARS_PER_TOKEN = 4


@dataclass(frozen=True, slots=True)
class EnrichmentEstimate:
    """What enriching some chunks would cost, before spending anything.

    Attributes:
        chunks: Chunks considered.
        calls: LLM calls needed (chunks neither cached, fine nor under ``min_tokens``).
        cached: Chunks whose fields are all in the cache.
        skipped: Chunks under ``min_tokens`` and fine chunks (never sent).
        input_tokens: Prompt tokens of those calls (about 4 characters a token).
        output_tokens: At most this many completion tokens (calls x ``max_tokens``).
    """

    chunks: int
    calls: int
    cached: int
    skipped: int
    input_tokens: int
    output_tokens: int

    def __add__(self, other: EnrichmentEstimate) -> EnrichmentEstimate:
        mine, theirs = asdict(self), asdict(other)
        return EnrichmentEstimate(**{k: mine[k] + theirs[k] for k in mine})

    def to_dict(self) -> dict[str, int]:
        """Return the fields as a dict (the JSON of ``index --estimate``)."""
        return asdict(self)


@dataclass(slots=True)
class EnrichmentStats:
    """Counts kept by an :class:`LLMEnricher` across its :meth:`~LLMEnricher.enrich` calls.

    Attributes:
        chunks: Chunks enriched (or attempted).
        calls: Completions requested from the LLM (retries included).
        cached: Chunks served entirely from the cache.
        skipped: Chunks under ``min_tokens`` and fine chunks.
        failed: Chunks that carry ``enrichment_error``.
        retries: Calls repeated after a retryable error.
        malformed: Answers that were not the JSON asked for.
        seconds: Wall time spent in :meth:`~LLMEnricher.enrich`.
    """

    chunks: int = 0
    calls: int = 0
    cached: int = 0
    skipped: int = 0
    failed: int = 0
    retries: int = 0
    malformed: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """Return the counts as a dict."""
        return asdict(self)


class _Breaker:
    """Stops sending after too many consecutive failures or one fatal error (thread-safe)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.run = 0
        self.reason: str | None = None
        self._lock = threading.Lock()

    def record(self, error: BaseException | None) -> None:
        with self._lock:
            if error is None:
                self.run = 0
                return
            self.run += 1
            fatal = isinstance(error, LLMError) and error.status in _FATAL_STATUSES
            if self.reason is None and (fatal or self.run >= self.limit):
                why = "an error no retry can fix" if fatal else f"{self.run} chunks failed in a row"
                self.reason = f"not sent: LLM enrichment stopped after {why} (last: {_reason(error)})"


class _Skip(Exception):
    """Raised inside a job when the breaker has tripped."""


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:299] + "\u2026"


def _approx_tokens(text: str) -> int:
    return math.ceil(len(text) / _CHARS_PER_TOKEN)


def _merge_names(*lists: Sequence[str]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for names in lists:
        for name in names:
            key = name.casefold()
            if key not in seen:
                seen.add(key)
                out.append(name)
    return out


class LLMEnricher:
    """An :class:`~sectionrag.protocols.Enricher` that asks an LLM for summaries, questions and entities.

    Args:
        llm: Any :class:`~sectionrag.protocols.LLM` (``complete(prompt, *, max_tokens)``).
        fields: Some of ``summary``, ``questions``, ``metadata``.
        model: Name used in cache keys and ``enriched_by``; default: the LLM's ``name``
            (or ``model``) attribute, else its class name.
        cache: Where answers are kept (:class:`~sectionrag.enrich.MemoryCache`,
            :class:`~sectionrag.enrich.SQLiteCache`); ``None`` caches nothing.
        concurrency: Most calls in flight at once.
        max_retries: Retries of a call after a retryable :class:`~sectionrag.enrich.LLMError`.
        backoff: First retry delay in seconds; doubled each retry, with jitter.
        max_backoff: Longest delay, ``Retry-After`` included.
        json_retries: Times a malformed answer is asked for again.
        min_tokens: Chunks with fewer tokens (``Chunk.token_count``) are not sent.
        max_tokens: Completion budget of one call.
        max_questions: Most questions kept per chunk.
        embed_summary: Put the summary in the embedded header (``Chunk.context``).
        tokenizer: Recounts ``token_count`` when ``embed_summary`` changes the embedded text.
        extractive_metadata: Add regex metadata (dates, years, fiscal periods,
            amounts, percentages, organisations, people) to every chunk, sent or not.
        max_consecutive_failures: Stop sending after this many chunks fail in a row.

    Attributes:
        stats: Counts across calls (:class:`EnrichmentStats`).
    """

    def __init__(
        self,
        llm: LLM,
        *,
        fields: Sequence[str] = LLM_FIELDS,
        model: str | None = None,
        cache: EnrichmentCache | None = None,
        concurrency: int = 4,
        max_retries: int = 3,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        json_retries: int = 1,
        min_tokens: int = 0,
        max_tokens: int = 512,
        max_questions: int = 5,
        embed_summary: bool = False,
        tokenizer: TokenCounter | None = None,
        extractive_metadata: bool = True,
        max_consecutive_failures: int = 8,
    ) -> None:
        if not isinstance(llm, LLM):
            raise TypeError(
                f"llm must implement sectionrag.LLM (complete(prompt, *, max_tokens)), got {llm!r}"
            )
        if isinstance(fields, str) or not fields or any(f not in LLM_FIELDS for f in fields):
            raise ConfigError(f"fields must be some of {', '.join(LLM_FIELDS)}; got {fields!r}")
        if cache is not None and not isinstance(cache, EnrichmentCache):
            raise TypeError(f"cache must have get(key) and put(key, value), got {type(cache).__name__}")
        for label, value, low in (
            ("concurrency", concurrency, 1),
            ("max_retries", max_retries, 0),
            ("json_retries", json_retries, 0),
            ("min_tokens", min_tokens, 0),
            ("max_tokens", max_tokens, 16),
            ("max_questions", max_questions, 1),
            ("max_consecutive_failures", max_consecutive_failures, 1),
        ):
            check_int(label, value, minimum=low)
        if not (backoff >= 0 and max_backoff >= 0):
            raise ConfigError(f"backoff and max_backoff must be >= 0, got {backoff!r}, {max_backoff!r}")
        self.llm = llm
        self.fields = tuple(f for f in LLM_FIELDS if f in fields)
        self.model = model or str(
            getattr(llm, "name", None) or getattr(llm, "model", None) or type(llm).__name__
        )
        self.cache = cache
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.json_retries = json_retries
        self.min_tokens = min_tokens
        self.max_tokens = max_tokens
        self.max_questions = max_questions
        self.embed_summary = embed_summary
        self.tokenizer = tokenizer
        self.extractive_metadata = extractive_metadata
        self.max_consecutive_failures = max_consecutive_failures
        self.stats = EnrichmentStats()
        self._lock = threading.Lock()
        self._random = random.Random(0)

    def __repr__(self) -> str:
        return f"LLMEnricher({self.llm!r}, fields={self.fields!r}, model={self.model!r})"

    def with_default_tokenizer(self, tokenizer: TokenCounter) -> LLMEnricher:
        """Return this enricher counting ``token_count`` with ``tokenizer`` unless it was given one.

        A pipeline calls this with its embedder (see :class:`~sectionrag.protocols.TokenizerDefault`).
        """
        return with_tokenizer(self, tokenizer)

    @property
    def name(self) -> str:
        """``llm:MODEL/pVERSION``: recorded in each enriched chunk's ``enriched_by``."""
        return f"llm:{self.model}/p{PROMPT_VERSION}"

    def config(self) -> dict[str, Any]:
        """Return the settings that decide the output (not speed, retries or the cache)."""
        return {
            "model": self.model,
            "prompt_version": PROMPT_VERSION,
            "fields": list(self.fields),
            "min_tokens": self.min_tokens,
            "max_tokens": self.max_tokens,
            "max_questions": self.max_questions,
            "embed_summary": self.embed_summary,
            "extractive_metadata": self.extractive_metadata,
        }

    # -- inputs ---------------------------------------------------------------------
    @staticmethod
    def _context(chunk: Chunk) -> str:
        parts = [PurePath(chunk.source).name] if chunk.source else []
        parts.extend(chunk.section_path)
        return " > ".join(p for p in parts if p)

    def _keys(self, chunk: Chunk) -> dict[str, str]:
        shown = f"{self._context(chunk)}\n{chunk.text}"
        return {f: cache_key(shown, f, PROMPT_VERSION, self.model) for f in self.fields}

    def _cached(self, keys: dict[str, str]) -> dict[str, Any]:
        if self.cache is None:
            return {}
        found: dict[str, Any] = {}
        for field, key in keys.items():
            value = self.cache.get(key)
            if value is not None:
                found[field] = value
        return found

    # -- estimate -------------------------------------------------------------------
    def estimate(self, chunks: Sequence[Chunk]) -> EnrichmentEstimate:
        """Count the calls and tokens :meth:`enrich` would spend on ``chunks`` (nothing is sent)."""
        calls = cached = skipped = tokens_in = 0
        for chunk in chunks:
            if chunk.token_count < self.min_tokens or chunk.fine:
                skipped += 1
                continue
            found = self._cached(self._keys(chunk))
            missing = [f for f in self.fields if f not in found]
            if not missing:
                cached += 1
                continue
            calls += 1
            prompt = build_prompt(
                chunk.text, fields=missing, context=self._context(chunk), max_questions=self.max_questions
            )
            tokens_in += _approx_tokens(prompt)
        return EnrichmentEstimate(len(chunks), calls, cached, skipped, tokens_in, calls * self.max_tokens)

    # -- enrichment -----------------------------------------------------------------
    def enrich(self, chunks: Sequence[Chunk], document: Document | None = None) -> list[Chunk]:
        """Return the chunks with the LLM's fields (and regex metadata) merged into their metadata.

        Never raises for a failed call: the chunk gets ``enrichment_error`` instead.

        Args:
            chunks: The chunks to enrich.
            document: Their document (used for log messages).
        """
        started = time.perf_counter()
        chunks = list(chunks)
        for c in chunks:
            if not isinstance(c, Chunk):
                raise TypeError(f"chunks must be Chunk objects, got {type(c).__name__}")
        breaker = _Breaker(self.max_consecutive_failures)
        results: list[dict[str, Any]] = [{} for _ in chunks]
        errors: list[str | None] = [None] * len(chunks)
        jobs: list[tuple[int, dict[str, str], list[str]]] = []
        skipped = cached = 0
        for i, chunk in enumerate(chunks):
            if chunk.token_count < self.min_tokens or chunk.fine:
                skipped += 1
                continue
            keys = self._keys(chunk)
            results[i] = self._cached(keys)
            missing = [f for f in self.fields if f not in results[i]]
            if missing:
                jobs.append((i, keys, missing))
            else:
                cached += 1

        def run(job: tuple[int, dict[str, str], list[str]]) -> None:
            i, keys, missing = job
            try:
                fresh = self._ask(chunks[i], missing, breaker)
            except _Skip:
                errors[i] = breaker.reason
                return
            except Exception as e:  # any failure of one chunk is recorded, never raised
                breaker.record(e)
                errors[i] = _reason(e)
                return
            breaker.record(None)
            results[i].update(fresh)
            if self.cache is not None:
                for field, value in fresh.items():
                    self.cache.put(keys[field], value)

        if len(jobs) > 1 and self.concurrency > 1:
            with ThreadPoolExecutor(max_workers=min(self.concurrency, len(jobs))) as pool:
                list(pool.map(run, jobs))
        else:
            for job in jobs:
                run(job)

        out = [self._apply(chunk, results[i], errors[i]) for i, chunk in enumerate(chunks)]
        failed = sum(1 for e in errors if e is not None)
        with self._lock:
            self.stats.chunks += len(chunks)
            self.stats.cached += cached
            self.stats.skipped += skipped
            self.stats.failed += failed
            self.stats.seconds += time.perf_counter() - started
        if failed:
            source = document.source if document is not None else (chunks[0].source if chunks else "")
            first = next(e for e in errors if e is not None)
            logger.warning(
                "LLM enrichment failed for %d of %d chunks of %s (first: %s); they are indexed without it",
                failed,
                len(chunks),
                source or "a document",
                first,
            )
        return out

    def _apply(self, chunk: Chunk, found: dict[str, Any], error: str | None) -> Chunk:
        values: dict[str, Any] = {}
        if "summary" in found:
            values["summary"] = found["summary"]
        if "questions" in found:
            values["questions"] = list(found["questions"])
        regex = extract_metadata(chunk.text) if self.extractive_metadata else {}
        llm_meta: dict[str, Any] = found.get("metadata") or {}
        if regex:
            values.update(
                {k: regex[k] for k in ("dates", "years", "fiscal_periods", "amounts", "percentages")}
            )
        if regex or llm_meta:
            organizations = _merge_names(llm_meta.get("organizations", []), regex.get("organizations", []))
            people = _merge_names(llm_meta.get("people", []), regex.get("people", []))
            values["organizations"] = organizations
            values["people"] = people
            if "places" in llm_meta:
                values["places"] = list(llm_meta["places"])
            values["entities"] = _merge_names(organizations, people, values.get("places", []))
        for key in METADATA_LISTS:
            if key not in ("organizations", "people", "places") and key in llm_meta:
                values[key] = list(llm_meta[key])
        if found:
            values["enriched_by"] = self.name
        if error is not None:
            values["enrichment_error"] = error
        return apply_enrichment(chunk, values, embed_summary=self.embed_summary, tokenizer=self.tokenizer)

    def _ask(self, chunk: Chunk, fields: list[str], breaker: _Breaker) -> dict[str, Any]:
        """Ask for ``fields`` of one chunk; retry transport errors and malformed answers."""
        context = self._context(chunk)
        malformed = 0
        while True:
            prompt = build_prompt(
                chunk.text,
                fields=fields,
                context=context,
                max_questions=self.max_questions,
                retry=malformed > 0,
            )
            try:
                raw = self._complete(prompt, breaker)
                if not isinstance(raw, str):
                    raise MalformedResponseError(f"the LLM returned {type(raw).__name__}, not text")
                return parse_response(raw, fields=fields, max_questions=self.max_questions)
            except (MalformedResponseError, LLMResponseError) as e:
                with self._lock:
                    self.stats.malformed += 1
                if malformed >= self.json_retries:
                    raise MalformedResponseError(
                        f"malformed answer after {malformed + 1} attempt(s): {_reason(e)}"
                    ) from e
                malformed += 1

    def _complete(self, prompt: str, breaker: _Breaker) -> str:
        attempt = 0
        while True:
            if breaker.reason is not None:
                raise _Skip
            with self._lock:
                self.stats.calls += 1
            try:
                return self.llm.complete(prompt, max_tokens=self.max_tokens)
            except LLMResponseError:
                raise
            except LLMError as e:
                if not e.retryable or attempt >= self.max_retries:
                    if attempt:
                        raise LLMError(
                            f"{_reason(e)} (after {attempt + 1} attempts)",
                            status=e.status,
                            retryable=e.retryable,
                        ) from e
                    raise
                with self._lock:
                    self.stats.retries += 1
                    jitter = 0.5 + 0.5 * self._random.random()
                delay = e.retry_after if e.retry_after is not None else self.backoff * (2**attempt) * jitter
                time.sleep(min(delay, self.max_backoff))
                attempt += 1
