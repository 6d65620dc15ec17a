"""Token counting with exact character offsets.

Chunkers size chunks in tokens. Anything with ``count_tokens(text) -> int``
works (see :class:`~sectionrag.protocols.TokenCounter`); tokenizers that also
offer ``token_offsets(text)`` let a chunker tokenize a document once and cut
at token boundaries without re-counting candidate pieces.

- :class:`WordTokenizer`: dependency-free regex tokenizer (words and punctuation);
  the default when no model tokenizer is given.
- :class:`HFTokenizer`: a Hugging Face ``tokenizers`` tokenizer (a model's own
  ``tokenizer.json``), never truncating or padding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import tokenizers

__all__ = ["HFTokenizer", "OffsetTokenizer", "WordTokenizer", "token_offsets", "whitespace_additive"]

_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


@runtime_checkable
class OffsetTokenizer(Protocol):
    """A token counter that also reports each token's character span."""

    def count_tokens(self, text: str) -> int:
        """Return the number of tokens in ``text``."""
        ...

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Return ``(start, end)`` character spans of the tokens of ``text``, in order."""
        ...


class WordTokenizer:
    """Counts runs of word characters and single punctuation marks as tokens."""

    name = "words"
    #: counts add up across whitespace: ``count(a + " " + b) == count(a) + count(b)``
    whitespace_additive = True

    def count_tokens(self, text: str) -> int:
        """Return the number of word and punctuation tokens in ``text``."""
        return sum(1 for _ in _WORD.finditer(text))

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Return the spans of the word and punctuation tokens of ``text``."""
        return [m.span() for m in _WORD.finditer(text)]


class HFTokenizer:
    """Wraps a Hugging Face fast tokenizer; no special tokens, no truncation, no padding.

    Args:
        tokenizer: A ``tokenizers.Tokenizer``, a path to a ``tokenizer.json``, or a
            directory that contains one.
        name: Label used in reports (defaults to the path).
    """

    def __init__(self, tokenizer: tokenizers.Tokenizer | str | Path, *, name: str | None = None) -> None:
        import tokenizers as tk

        if isinstance(tokenizer, (str, Path)):
            path = Path(tokenizer)
            if path.is_dir():
                path = path / "tokenizer.json"
            if not path.is_file():
                from sectionrag.errors import ConfigError

                raise ConfigError(f"no tokenizer.json at {path}")
            self.name = name or str(path.parent)
            tokenizer = tk.Tokenizer.from_file(str(path))
        else:
            self.name = name or "tokenizer"
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self._tok: Any = tokenizer
        #: counts add up across whitespace (a Bert-style or whitespace pre-tokenizer)
        self.whitespace_additive = whitespace_additive(tokenizer)

    def count_tokens(self, text: str) -> int:
        """Return the number of model tokens in ``text``."""
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """Count tokens of many texts in one (parallel) call."""
        encode = getattr(self._tok, "encode_batch_fast", self._tok.encode_batch)  # fast: no offsets
        return [len(e) for e in encode(list(texts), add_special_tokens=False)]

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Return ``(start, end)`` character spans of the model tokens of ``text``."""
        return [tuple(o) for o in self._tok.encode(text, add_special_tokens=False).offsets]

    def token_offsets_batch(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Token spans of many texts in one (parallel) call."""
        encs = self._tok.encode_batch(list(texts), add_special_tokens=False)
        return [e.offsets for e in encs]


_ADDITIVE_PRE = frozenset({"BertPreTokenizer", "Whitespace", "WhitespaceSplit"})
_ADDITIVE_NORM = frozenset(
    {"BertNormalizer", "Lowercase", "NFC", "NFD", "NFKC", "NFKD", "StripAccents", "Strip"}
)


def whitespace_additive(tokenizer: Any) -> bool:
    """Tell whether a ``tokenizers.Tokenizer`` tokenizes each whitespace-separated word on its own.

    Then the tokens of a text cut at whitespace are the tokens of its pieces,
    so counts add up; chunkers use this to skip re-counting chunks.
    """
    import json

    try:
        spec = json.loads(tokenizer.to_str())
    except (AttributeError, ValueError, TypeError):
        return False

    def kinds(node: Any) -> list[str]:
        if not isinstance(node, dict):
            return []
        if node.get("type") == "Sequence":
            items = node.get("normalizers") or node.get("pretokenizers") or []
            return [k for item in items for k in kinds(item)]
        return [str(node.get("type"))]

    pre = kinds(spec.get("pre_tokenizer"))
    norm = kinds(spec.get("normalizer"))
    return len(pre) == 1 and pre[0] in _ADDITIVE_PRE and all(k in _ADDITIVE_NORM for k in norm)


def token_offsets(counter: object, text: str) -> list[tuple[int, int]] | None:
    """Return token spans if ``counter`` can give them, else ``None``."""
    fn = getattr(counter, "token_offsets", None)
    return fn(text) if callable(fn) else None
