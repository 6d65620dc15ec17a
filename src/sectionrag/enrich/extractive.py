"""Offline, deterministic enrichment: central sentences, key phrases and regex metadata.

No LLM and no network. For each chunk:

- ``summary``: the chunk's most central sentence(s), in text order. Centrality
  is the cosine of a sentence's TF-IDF vector with the whole chunk's (IDF over
  the chunks of the document being enriched), or, with an ``embedder``, the
  cosine of their embeddings. Headings, table rows and sentences under four
  words are not candidates.
- ``keywords``: the top key phrases: runs of up to three content words between
  stop words and punctuation, scored by the TF-IDF of their words.
- metadata from :func:`~sectionrag.enrich.metadata.extract_metadata`: dates,
  years, fiscal periods, money amounts, percentages, organisations, people.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sectionrag._checks import check_int
from sectionrag._sentences import split_sentences
from sectionrag.enrich._apply import apply_enrichment, with_tokenizer
from sectionrag.enrich.metadata import extract_metadata
from sectionrag.errors import ConfigError
from sectionrag.types import Chunk, Document

if TYPE_CHECKING:
    from sectionrag.protocols import Embedder, TokenCounter

__all__ = ["EXTRACTIVE_FIELDS", "EXTRACTIVE_VERSION", "STOP_WORDS", "ExtractiveEnricher"]

#: recorded in ``enriched_by``; bump when the output for a given text changes
EXTRACTIVE_VERSION = "1"
#: fields :class:`ExtractiveEnricher` can produce
EXTRACTIVE_FIELDS = ("summary", "keywords", "metadata")

STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "either",
        "else",
        "etc",
        "even",
        "ever",
        "every",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "however",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "least",
        "less",
        "let",
        "like",
        "many",
        "may",
        "me",
        "might",
        "more",
        "most",
        "much",
        "must",
        "my",
        "myself",
        "neither",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "often",
        "on",
        "once",
        "one",
        "only",
        "or",
        "other",
        "others",
        "otherwise",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "per",
        "perhaps",
        "rather",
        "same",
        "shall",
        "she",
        "should",
        "since",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "therefore",
        "these",
        "they",
        "this",
        "those",
        "though",
        "through",
        "thus",
        "to",
        "too",
        "under",
        "until",
        "up",
        "upon",
        "us",
        "very",
        "via",
        "was",
        "we",
        "were",
        "what",
        "whatever",
        "when",
        "whenever",
        "where",
        "whereas",
        "whether",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "yet",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "s",
        "t",
        "don",
        "doesn",
        "isn",
        "wasn",
        "aren",
        "weren",
        "won",
        "e",
        "g",
        "ie",
        "eg",
        "i.e",
        "e.g",
    ]
)

_TERM = re.compile(r"[^\W\d_][\w'\u2019-]*[^\W_]|[^\W\d_]", re.UNICODE)
# a word, or something that ends a key phrase (punctuation, a line break, a dash between spaces)
_SCAN = re.compile(
    r"(?P<w>[^\W\d_][\w'\u2019-]*[^\W_]|[^\W\d_])|[.,;:!?()\[\]{}\"\u201c\u201d|/\\<>=*#\n]|\s[-\u2013\u2014]\s|\d+",
    re.UNICODE,
)
_TABLE_ROW = re.compile(r"\|.*\|")
#: never part of a key phrase (they are figures' units, not topics)
_NUMBER_WORDS = frozenset(["percent", "thousand", "million", "billion", "trillion", "per", "cent"])
_MIN_SENTENCE_WORDS = 4
_MAX_PHRASE_WORDS = 3


def _terms(text: str) -> list[str]:
    return [
        t for t in (m.group(0).lower() for m in _TERM.finditer(text)) if t not in STOP_WORDS and len(t) > 1
    ]


def _scan(text: str) -> tuple[list[tuple[int, str]], list[list[str]]]:
    """Return the content terms ``(offset, lower-case term)`` and the key-phrase runs of ``text``."""
    terms: list[tuple[int, str]] = []
    runs: list[list[str]] = []
    run: list[str] = []
    for m in _SCAN.finditer(text):
        word = m.group("w")
        low = word.lower() if word is not None else ""
        if word is None or low in STOP_WORDS or low in _NUMBER_WORDS or len(low) < 2:
            if run:
                runs.append(run)
                run = []
            continue
        terms.append((m.start(), low))
        run.append(word)
        if len(run) == _MAX_PHRASE_WORDS:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return terms, runs


def _is_candidate(sentence: str) -> bool:
    stripped = sentence.strip()
    if not stripped or stripped.startswith("#") or _TABLE_ROW.search(stripped):
        return False
    words = stripped.split()
    if len(words) < _MIN_SENTENCE_WORDS:
        return False
    # a short line without a sentence end reads as a heading or a label
    return not (len(words) <= 8 and stripped[-1] not in ".!?\"'\u201d)")


def _cosine(a: Counter[str], b: dict[str, float], idf: dict[str, float], b_norm: float) -> float:
    dot = 0.0
    norm = 0.0
    for term, count in a.items():
        weight = count * idf.get(term, 1.0)
        norm += weight * weight
        dot += weight * b.get(term, 0.0)
    if norm == 0.0 or b_norm == 0.0:
        return 0.0
    return dot / (math.sqrt(norm) * b_norm)


class ExtractiveEnricher:
    """An :class:`~sectionrag.protocols.Enricher` that needs no LLM: fast, offline, deterministic.

    Args:
        fields: Which of ``summary``, ``keywords``, ``metadata`` to produce.
        summary_sentences: How many central sentences make the summary.
        max_summary_chars: Longer summaries are cut at a word boundary (with an ellipsis).
        keywords: How many key phrases to keep.
        embedder: Rank sentences by embedding similarity instead of TF-IDF (slower).
        embed_summary: Put the summary in the embedded header (``Chunk.context``),
            so the chunk's vector reflects it.
        tokenizer: Recounts ``token_count`` when ``embed_summary`` changes the
            embedded text (pass the embedder); otherwise words are added.
        min_tokens: Chunks with fewer tokens (``Chunk.token_count``) get metadata only.
    """

    def __init__(
        self,
        *,
        fields: Sequence[str] = EXTRACTIVE_FIELDS,
        summary_sentences: int = 1,
        max_summary_chars: int = 300,
        keywords: int = 5,
        embedder: Embedder | None = None,
        embed_summary: bool = False,
        tokenizer: TokenCounter | None = None,
        min_tokens: int = 0,
    ) -> None:
        unknown = [f for f in fields if f not in EXTRACTIVE_FIELDS]
        if unknown or isinstance(fields, str):
            choices = ", ".join(EXTRACTIVE_FIELDS)
            raise ConfigError(f"unknown extractive fields {unknown or fields!r}; choose from: {choices}")
        for name, value, low in (
            ("summary_sentences", summary_sentences, 1),
            ("max_summary_chars", max_summary_chars, 20),
            ("keywords", keywords, 0),
            ("min_tokens", min_tokens, 0),
        ):
            check_int(name, value, minimum=low)
        self.fields = tuple(fields)
        self.summary_sentences = summary_sentences
        self.max_summary_chars = max_summary_chars
        self.keywords = keywords
        self.embedder = embedder
        self.embed_summary = embed_summary
        self.tokenizer = tokenizer
        self.min_tokens = min_tokens

    def __repr__(self) -> str:
        return f"ExtractiveEnricher(fields={self.fields!r}, embed_summary={self.embed_summary!r})"

    def with_default_tokenizer(self, tokenizer: TokenCounter) -> ExtractiveEnricher:
        """Return this enricher counting ``token_count`` with ``tokenizer`` unless it was given one.

        A pipeline calls this with its embedder (see :class:`~sectionrag.protocols.TokenizerDefault`).
        """
        return with_tokenizer(self, tokenizer)

    @property
    def name(self) -> str:
        """``extractive/VERSION``: recorded in each chunk's ``enriched_by``."""
        return f"extractive/{EXTRACTIVE_VERSION}"

    def config(self) -> dict[str, Any]:
        """Return the settings that decide the output (a changed one re-indexes a source)."""
        return {
            "version": EXTRACTIVE_VERSION,
            "fields": list(self.fields),
            "summary_sentences": self.summary_sentences,
            "max_summary_chars": self.max_summary_chars,
            "keywords": self.keywords,
            "embedder": None if self.embedder is None else str(self.embedder.name),
            "embed_summary": self.embed_summary,
            "min_tokens": self.min_tokens,
        }

    def enrich(self, chunks: Sequence[Chunk], document: Document | None = None) -> list[Chunk]:
        """Return the chunks with ``summary``, ``keywords`` and metadata merged into their metadata.

        Args:
            chunks: Chunks of one document (IDF is computed over them).
            document: Their document (unused; part of the Enricher protocol).
        """
        chunks = list(chunks)
        for c in chunks:
            if not isinstance(c, Chunk):
                raise TypeError(f"chunks must be Chunk objects, got {type(c).__name__}")
        if not chunks:
            return []
        textual = "summary" in self.fields or "keywords" in self.fields
        scans = [_scan(c.text) if textual else ([], []) for c in chunks]
        counts = [Counter(t for _, t in terms) for terms, _ in scans]
        idf = self._idf(counts)
        summaries: list[str | None] = [None] * len(chunks)
        if "summary" in self.fields:
            summaries = self._summaries(chunks, [terms for terms, _ in scans], counts, idf)
        out: list[Chunk] = []
        for i, chunk in enumerate(chunks):
            values: dict[str, Any] = {}
            full = chunk.token_count >= self.min_tokens
            if "summary" in self.fields and full:
                values["summary"] = summaries[i] or ""
            if "keywords" in self.fields and full:
                values["keywords"] = self._keywords(scans[i][1], counts[i], idf)
            if "metadata" in self.fields:
                values.update(extract_metadata(chunk.text))
            values["enriched_by"] = self.name
            out.append(
                apply_enrichment(chunk, values, embed_summary=self.embed_summary, tokenizer=self.tokenizer)
            )
        return out

    @staticmethod
    def _idf(counts: list[Counter[str]]) -> dict[str, float]:
        df: Counter[str] = Counter()
        for c in counts:
            df.update(c.keys())
        n = len(counts)
        return {t: math.log((n + 1) / (d + 1)) + 1.0 for t, d in df.items()}

    def _candidates(self, chunk: Chunk) -> list[tuple[int, int]]:
        spans = split_sentences(chunk.text).spans
        return [(a, b) for a, b in spans if _is_candidate(chunk.text[a:b])]

    def _summaries(
        self,
        chunks: list[Chunk],
        terms: list[list[tuple[int, str]]],
        counts: list[Counter[str]],
        idf: dict[str, float],
    ) -> list[str | None]:
        candidates = [self._candidates(c) for c in chunks]
        if self.embedder is not None:
            scores = self._embedding_scores(chunks, candidates)
        else:
            scores = []
            for spans, found, whole in zip(candidates, terms, counts, strict=True):
                vec = {t: n * idf.get(t, 1.0) for t, n in whole.items()}
                norm = math.sqrt(sum(w * w for w in vec.values()))
                starts = [offset for offset, _ in found]
                row = []
                for a, b in spans:
                    lo, hi = bisect.bisect_left(starts, a), bisect.bisect_left(starts, b)
                    row.append(_cosine(Counter(t for _, t in found[lo:hi]), vec, idf, norm))
                scores.append(row)
        out: list[str | None] = []
        for chunk, spans, sc in zip(chunks, candidates, scores, strict=True):
            if not spans:
                out.append(self._clip(chunk.text) if _is_candidate(chunk.text) else None)
                continue
            # a small lead bonus: the first sentence of a passage often states its topic
            ranked = sorted(range(len(spans)), key=lambda i: -(sc[i] + (0.05 if i == 0 else 0.0)))
            best = sorted(ranked[: self.summary_sentences])
            out.append(
                self._clip(" ".join(" ".join(chunk.text[a:b].split()) for a, b in (spans[i] for i in best)))
            )
        return out

    def _embedding_scores(
        self, chunks: list[Chunk], candidates: list[list[tuple[int, int]]]
    ) -> list[list[float]]:
        import numpy as np

        assert self.embedder is not None
        texts = [c.text for c in chunks]
        sentences = [c.text[a:b] for c, spans in zip(chunks, candidates, strict=True) for a, b in spans]
        vectors = np.asarray(self.embedder.embed_documents(texts + sentences), dtype=np.float32)
        whole, parts = vectors[: len(texts)], vectors[len(texts) :]
        scores: list[list[float]] = []
        offset = 0
        for i, spans in enumerate(candidates):
            block = parts[offset : offset + len(spans)]
            offset += len(spans)
            scores.append([float(x) for x in block @ whole[i]])
        return scores

    def _clip(self, text: str) -> str:
        flat = " ".join(text.split())
        if len(flat) <= self.max_summary_chars:
            return flat
        cut = flat[: self.max_summary_chars - 1]
        space = cut.rfind(" ")
        return (cut[:space] if space > self.max_summary_chars // 2 else cut).rstrip(",;: ") + "\u2026"

    def _keywords(self, runs: list[list[str]], counts: Counter[str], idf: dict[str, float]) -> list[str]:
        if self.keywords == 0:
            return []
        weights = {t: (1.0 + math.log(n)) * idf.get(t, 1.0) for t, n in counts.items()}
        scored: dict[str, list[Any]] = {}  # lower-case phrase -> [score, first position, words, base score]
        for order, run in enumerate(runs):
            key = " ".join(run).lower()
            entry = scored.get(key)
            if entry is not None:
                entry[0] += 0.5 * entry[3]
            elif any(len(w) > 2 for w in run):
                score = sum(weights.get(w.lower(), 0.0) for w in run) / math.sqrt(len(run))
                scored[key] = [score, order, run, score]
        ranked = sorted(scored.items(), key=lambda kv: (-kv[1][0], kv[1][1]))
        chosen: list[str] = []
        lowered: list[str] = []
        for low, (_, _, run, _) in ranked:
            if any(low in c or c in low for c in lowered):
                continue
            # keep acronyms and inner capitals (SQLite, WAL); lower-case the rest
            chosen.append(" ".join(w if w.isupper() or not w[1:].islower() else w.lower() for w in run))
            lowered.append(low)
            if len(chosen) == self.keywords:
                break
        return chosen
