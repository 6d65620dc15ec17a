"""Index-time enrichment: summaries, questions and metadata for each chunk.

- :class:`ExtractiveEnricher`: offline and deterministic (central sentences,
  key phrases, regex metadata).
- :class:`LLMEnricher`: summaries, questions and entities from an LLM, with a
  cache, retries, bounded concurrency and per-chunk failure records.
- LLM adapters: :class:`OpenAICompatibleLLM` (plain HTTP) and :class:`AnthropicLLM`.
- :func:`extract_metadata`, :func:`enrichment_text`, :func:`list_values`: the pieces.

The keys enrichers write are listed in :mod:`sectionrag.enrich.fields`.
"""

from __future__ import annotations

from sectionrag.enrich.adapters import AnthropicLLM, LLMError, LLMResponseError, OpenAICompatibleLLM
from sectionrag.enrich.cache import EnrichmentCache, MemoryCache, SQLiteCache, cache_key
from sectionrag.enrich.extractive import ExtractiveEnricher
from sectionrag.enrich.fields import ENRICHMENT_KEYS, LIST_FIELDS, TEXT_FIELDS, enrichment_text, list_values
from sectionrag.enrich.llm import EnrichmentEstimate, EnrichmentStats, LLMEnricher
from sectionrag.enrich.metadata import extract_metadata
from sectionrag.enrich.prompts import PROMPT_VERSION, MalformedResponseError

__all__ = [
    "ENRICHMENT_KEYS",
    "LIST_FIELDS",
    "PROMPT_VERSION",
    "TEXT_FIELDS",
    "AnthropicLLM",
    "EnrichmentCache",
    "EnrichmentEstimate",
    "EnrichmentStats",
    "ExtractiveEnricher",
    "LLMEnricher",
    "LLMError",
    "LLMResponseError",
    "MalformedResponseError",
    "MemoryCache",
    "OpenAICompatibleLLM",
    "SQLiteCache",
    "cache_key",
    "enrichment_text",
    "extract_metadata",
    "list_values",
]
