"""Index-time enrichment: summaries, questions and metadata for each chunk.

- :class:`ExtractiveEnricher`: offline and deterministic (central sentences,
  key phrases, regex metadata).
- :class:`LLMEnricher`: summaries, questions and entities from an LLM, with a
  cache, retries, bounded concurrency and per-chunk failure records.
- LLM adapters: :class:`OpenAICompatibleLLM` (plain HTTP) and :class:`AnthropicLLM`.
- :func:`extract_metadata`, :func:`enrichment_text`, :func:`list_values`: the pieces.

The keys enrichers write (and stores index) are listed in
:mod:`sectionrag.enrichment_fields`, below the stages, where enrichers and
stores both read them. Names here are imported on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sectionrag.enrich.adapters import AnthropicLLM, LLMError, LLMResponseError, OpenAICompatibleLLM
    from sectionrag.enrich.cache import EnrichmentCache, MemoryCache, SQLiteCache, cache_key
    from sectionrag.enrich.extractive import ExtractiveEnricher
    from sectionrag.enrich.llm import EnrichmentEstimate, EnrichmentStats, LLMEnricher
    from sectionrag.enrich.metadata import extract_metadata
    from sectionrag.enrich.prompts import PROMPT_VERSION, MalformedResponseError
    from sectionrag.enrichment_fields import (
        ENRICHMENT_KEYS,
        LIST_FIELDS,
        TEXT_FIELDS,
        enrichment_text,
        list_values,
    )

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

_MODULES = {
    "sectionrag.enrich.adapters": ("AnthropicLLM", "LLMError", "LLMResponseError", "OpenAICompatibleLLM"),
    "sectionrag.enrich.cache": ("EnrichmentCache", "MemoryCache", "SQLiteCache", "cache_key"),
    "sectionrag.enrich.extractive": ("ExtractiveEnricher",),
    "sectionrag.enrichment_fields": (
        "ENRICHMENT_KEYS",
        "LIST_FIELDS",
        "TEXT_FIELDS",
        "enrichment_text",
        "list_values",
    ),
    "sectionrag.enrich.llm": ("EnrichmentEstimate", "EnrichmentStats", "LLMEnricher"),
    "sectionrag.enrich.metadata": ("extract_metadata",),
    "sectionrag.enrich.prompts": ("PROMPT_VERSION", "MalformedResponseError"),
}
_LAZY = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sectionrag.enrich' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
