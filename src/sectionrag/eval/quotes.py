"""Evidence quotes: find a passage in a document's text by what it says.

An evaluation set that stores offsets breaks as soon as a parser changes the
extracted text by one character. Storing the evidence itself (a quote) and
finding it again when the set is used keeps the set valid across parser
changes, and fails loudly when the evidence is really gone.

Matching is exact after normalising both sides the same way:

- case is folded;
- curly quotes become straight ones, dashes (en, em, minus, non-breaking
  hyphen) become ``-``, and ``--`` becomes ``-``;
- every run of whitespace and table-cell bars (``|``) becomes one space.

A quote of the form ``"first words [...] last words"`` covers everything from
the first part to the nearest following occurrence of the last part. A quote
must occur exactly once in its document (pass ``occurrence`` to pick one of
several), so a reference never lands on the wrong copy of repeated text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sectionrag.errors import ConfigError

__all__ = ["ELLIPSIS", "QuoteNotFoundError", "normalize", "resolve_quote", "resolve_references"]

#: separates the first and the last words of a long quote
ELLIPSIS = " [...] "

_FOLD = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "`": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "\u2010": "-",
    "\u2011": "-",
    "|": " ",
}


class QuoteNotFoundError(ConfigError):
    """A quote does not occur in its document, or occurs more than once."""


def normalize(text: str) -> tuple[str, list[int]]:
    """Normalise ``text`` for matching; return it with the original offset of each character.

    ``offsets[i]`` is the offset in ``text`` of normalised character ``i``;
    one extra entry (``len(text)``) closes the list, so a normalised span
    ``[a, b)`` maps back to ``[offsets[a], offsets[b - 1] + 1)``.
    """
    out: list[str] = []
    offsets: list[int] = []
    space = False
    for i, ch in enumerate(text):
        ch = _FOLD.get(ch, ch)
        if ch.isspace():
            if out and not space:
                out.append(" ")
                offsets.append(i)
            space = True
            continue
        if ch == "-" and out and out[-1] == "-" and not space:
            continue  # "--" reads as one dash
        low = ch.lower()
        out.append(low if len(low) == 1 else ch)
        offsets.append(i)
        space = False
    if out and out[-1] == " ":
        out.pop()
        offsets.pop()
    offsets.append(len(text))
    return "".join(out), offsets


def _find_all(haystack: str, needle: str) -> list[int]:
    found: list[int] = []
    start = haystack.find(needle)
    while start >= 0:
        found.append(start)
        start = haystack.find(needle, start + 1)
    return found


class _Index:
    """A document's normalised text, kept for many quotes."""

    def __init__(self, text: str) -> None:
        self.norm, self.offsets = normalize(text)

    def span(self, a: int, b: int) -> tuple[int, int]:
        return self.offsets[a], self.offsets[b - 1] + 1


def resolve_quote(
    text: str | _Index, quote: str, *, occurrence: int | None = None, source: str = "document"
) -> tuple[int, int]:
    """Return the ``(start, end)`` offsets of ``quote`` in ``text``.

    Args:
        text: The document's text (``Document.text``).
        quote: The evidence, verbatim up to the normalisation in the module
            docstring; ``"A [...] B"`` spans from ``A`` to the next ``B``.
        occurrence: Which match to take (0-based) when the quote occurs more
            than once; ``None`` requires exactly one.
        source: Named in error messages.

    Raises:
        QuoteNotFoundError: the quote (or its last part) is not in the text, or
            it occurs several times and ``occurrence`` is not given.
    """
    index = text if isinstance(text, _Index) else _Index(text)
    head, sep, tail = quote.partition(ELLIPSIS)
    needle = normalize(head)[0]
    if not needle:
        raise QuoteNotFoundError(f"{source}: empty quote {quote!r}")
    hits = _find_all(index.norm, needle)
    if not hits:
        raise QuoteNotFoundError(f"{source}: quote not found: {head[:120]!r}")
    if occurrence is None:
        if len(hits) > 1:
            raise QuoteNotFoundError(
                f"{source}: quote occurs {len(hits)} times, "
                f"give 'occurrence' or a longer quote: {head[:120]!r}"
            )
        at = hits[0]
    elif 0 <= occurrence < len(hits):
        at = hits[occurrence]
    else:
        raise QuoteNotFoundError(
            f"{source}: quote occurs {len(hits)} times, "
            f"occurrence {occurrence} does not exist: {head[:120]!r}"
        )
    end = at + len(needle)
    if sep:
        last = normalize(tail)[0]
        if not last:
            raise QuoteNotFoundError(f"{source}: empty last part in quote {quote!r}")
        stop = index.norm.find(last, end)
        if stop < 0:
            raise QuoteNotFoundError(
                f"{source}: last part of quote not found after its start: {tail[:120]!r}"
            )
        end = stop + len(last)
    return index.span(at, end)


def resolve_references(rows: Sequence[Mapping[str, Any]], texts: Mapping[str, str]) -> list[dict[str, Any]]:
    """Turn quote references into span references, for :func:`~sectionrag.eval.retrieval.parse_query`.

    Each row is a query object whose ``references`` may hold
    ``{"source": ..., "quote": ..., "occurrence": n}`` entries; each becomes
    ``{"source", "start", "end"}`` found in ``texts[source]`` (the parsed
    ``Document.text`` of that source). References that already have a span
    or a page are kept. Rows are copied, never changed in place.

    Raises:
        QuoteNotFoundError: a quote cannot be placed (the message names the
            query id and the source).
        ConfigError: a quote reference names a source missing from ``texts``.
    """
    indexes: dict[str, _Index] = {}
    out: list[dict[str, Any]] = []
    for row in rows:
        refs: list[Any] = []
        for ref in row.get("references") or []:
            if not isinstance(ref, Mapping) or "quote" not in ref:
                refs.append(ref)
                continue
            source = ref.get("source")
            if not isinstance(source, str) or source not in texts:
                raise ConfigError(f"query {row.get('id')!r}: no text for source {source!r}")
            if source not in indexes:
                indexes[source] = _Index(texts[source])
            start, end = resolve_quote(
                indexes[source],
                str(ref["quote"]),
                occurrence=ref.get("occurrence"),
                source=f"query {row.get('id')!r}, {source}",
            )
            refs.append({"source": source, "start": start, "end": end})
        out.append({**row, "references": refs})
    return out
