"""The prompts of :class:`~sectionrag.enrich.LLMEnricher`, and the validation of the answers.

One prompt asks for every requested field at once as a JSON object, so a
chunk costs one call. Changing the wording here must bump
:data:`PROMPT_VERSION`: it is part of every cache key, so cached answers to
an older prompt are not reused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from sectionrag.errors import ConfigError, EnrichmentError

__all__ = [
    "LLM_FIELDS",
    "METADATA_LISTS",
    "PROMPT_VERSION",
    "MalformedResponseError",
    "build_prompt",
    "parse_response",
]

#: bump whenever a prompt's wording or the expected JSON changes
PROMPT_VERSION = "1"
#: the fields an LLM can produce, in prompt order
LLM_FIELDS = ("summary", "questions", "metadata")
#: the lists inside the ``metadata`` answer
METADATA_LISTS = ("organizations", "people", "places", "categories", "key_facts", "keywords")

_MAX_ITEMS = 20
_MAX_ITEM_CHARS = 200
_MAX_SUMMARY_CHARS = 800

_HEAD = """You enrich passages of documents for a search index.
{where}
Passage:
<<<
{text}
>>>

Answer with one JSON object and nothing else: no prose, no code fence. Keys:
"""
_SPEC = {
    "summary": '- "summary": 1-2 sentences stating the passage\'s key points, in words a searcher would use.',
    "questions": (
        '- "questions": a list of {min_q}-{max_q} different questions a reader might ask that this passage '
        "answers, each a complete question."
    ),
    "metadata": (
        '- "metadata": an object with lists of strings: "organizations", "people", "places", '
        '"categories" (1-3 topics of the passage), "key_facts" (up to 3 short facts, with their figures), '
        '"keywords" (3-8 key phrases, including synonyms a searcher might type). Use [] when there is none.'
    ),
}
_TAIL = "Use only what the passage says."
_RETRY = (
    "\nYour previous answer was not a valid JSON object with these keys. Answer with the JSON object only."
)

_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)]|Q\d+[.:)])\s*")


class MalformedResponseError(EnrichmentError):
    """The model's answer is not the JSON object the prompt asked for."""


def _check_fields(fields: Sequence[str]) -> tuple[str, ...]:
    out = tuple(fields)
    unknown = [f for f in out if f not in LLM_FIELDS]
    if unknown or not out:
        raise ConfigError(
            f"unknown LLM enrichment fields {unknown or out!r}; choose from: {', '.join(LLM_FIELDS)}"
        )
    return tuple(f for f in LLM_FIELDS if f in out)


def build_prompt(
    text: str,
    *,
    fields: Sequence[str] = LLM_FIELDS,
    context: str = "",
    max_questions: int = 5,
    retry: bool = False,
) -> str:
    """Return the prompt asking for ``fields`` of the passage ``text``.

    Args:
        text: The chunk text.
        fields: Some of :data:`LLM_FIELDS`.
        context: Where the passage comes from (document, section path); shown above it.
        max_questions: The most questions asked for (at least 1).
        retry: Add a reminder after a malformed answer.
    """
    wanted = _check_fields(fields)
    where = f"Source: {' '.join(context.split())}\n" if context.strip() else ""
    max_q = max(1, max_questions)
    lines = [_SPEC[f].format(min_q=min(3, max_q), max_q=max_q) for f in wanted]
    prompt = _HEAD.format(where=where, text=text) + "\n".join(lines) + "\n" + _TAIL
    return prompt + _RETRY if retry else prompt


def _first_object(raw: str) -> Any:
    text = _FENCE.sub("", raw.strip())
    start = text.find("{")
    if start < 0:
        raise MalformedResponseError(f"no JSON object in the answer: {_excerpt(raw)}")
    try:
        value, _ = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError as e:
        raise MalformedResponseError(f"invalid JSON in the answer ({e.msg}): {_excerpt(raw)}") from e
    if not isinstance(value, dict):
        raise MalformedResponseError(f"the answer is not a JSON object: {_excerpt(raw)}")
    return value


def _excerpt(raw: str, n: int = 120) -> str:
    flat = " ".join(raw.split())
    return repr(flat if len(flat) <= n else flat[: n - 1] + "\u2026")


def _strings(value: Any, what: str, *, strip_bullets: bool = False) -> list[str]:
    if isinstance(value, str):
        value = [v for v in value.splitlines() if v.strip()]
    if not isinstance(value, list):
        raise MalformedResponseError(f"{what} must be a list of strings, got {type(value).__name__}")
    out: list[str] = []
    for item in value:
        if not isinstance(item, (str, int, float)) or isinstance(item, bool):
            continue
        text = " ".join(str(item).split())
        if strip_bullets:
            text = _BULLET.sub("", text)
        text = text[:_MAX_ITEM_CHARS]
        if text and text not in out:
            out.append(text)
    return out[:_MAX_ITEMS]


def parse_response(raw: str, *, fields: Sequence[str] = LLM_FIELDS, max_questions: int = 5) -> dict[str, Any]:
    """Validate the model's answer and return the requested fields, normalised.

    ``summary`` becomes one whitespace-normalised string, ``questions`` a list
    of at most ``max_questions`` distinct strings (bullets and numbers removed),
    ``metadata`` a dict with every list of :data:`METADATA_LISTS`. A code
    fence or text around the object is tolerated.

    Raises:
        MalformedResponseError: no JSON object, a requested key is missing, or a value has the wrong type.
    """
    if not isinstance(raw, str):
        raise MalformedResponseError(f"the model returned {type(raw).__name__}, not text")
    wanted = _check_fields(fields)
    obj = _first_object(raw)
    out: dict[str, Any] = {}
    for field in wanted:
        if field not in obj:
            raise MalformedResponseError(f"the answer lacks the key {field!r}: {_excerpt(raw)}")
        value = obj[field]
        if field == "summary":
            if not isinstance(value, str):
                raise MalformedResponseError(f"'summary' must be a string, got {type(value).__name__}")
            out["summary"] = " ".join(value.split())[:_MAX_SUMMARY_CHARS]
        elif field == "questions":
            out["questions"] = _strings(value, "'questions'", strip_bullets=True)[: max(1, max_questions)]
        else:
            if not isinstance(value, dict):
                raise MalformedResponseError(f"'metadata' must be an object, got {type(value).__name__}")
            out["metadata"] = {
                key: _strings(value.get(key, []), f"'metadata.{key}'") for key in METADATA_LISTS
            }
    return out
