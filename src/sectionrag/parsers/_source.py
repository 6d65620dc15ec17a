"""Reading sources: paths or bytes, decoding text, sniffing the real file type."""

from __future__ import annotations

import codecs
import os
from dataclasses import dataclass
from pathlib import Path

from sectionrag.errors import ParseError

__all__ = ["RawSource", "decode_text", "read_source", "sniff_kind"]

_MAX_SNIFF = 4096


@dataclass(frozen=True, slots=True)
class RawSource:
    """The bytes of a source and the name to record for it."""

    data: bytes
    name: str
    path: Path | None


def read_source(source: str | os.PathLike[str] | bytes, name: str | None = None) -> RawSource:
    """Read ``source`` (a path or the bytes themselves) into memory.

    Raises:
        ParseError: the path does not exist, is a directory, or cannot be read.
        TypeError: ``source`` is neither a path nor bytes.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return RawSource(bytes(source), name or "<bytes>", None)
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a path or bytes, not {type(source).__name__}")
    path = Path(source)
    label = name or str(path)
    if not path.exists():
        raise ParseError(f"{label}: no such file", source=label)
    if path.is_dir():
        raise ParseError(f"{label}: is a directory, not a file", source=label)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ParseError(f"{label}: cannot read file ({e.strerror or e})", source=label) from e
    return RawSource(data, label, path)


def sniff_kind(head: bytes) -> str | None:
    """Guess a file's kind from its first bytes.

    Returns:
        ``"pdf"``, ``"html"``, ``"binary"`` (a known non-text format or NUL bytes)
        or ``None`` when the bytes look like plain text (or are empty).
    """
    head = head[:_MAX_SNIFF]
    if b"%PDF-" in head[:1024]:
        return "pdf"
    for magic in (
        b"PK\x03\x04",
        b"\xd0\xcf\x11\xe0",
        b"\x89PNG",
        b"\xff\xd8\xff",
        b"GIF8",
        b"\x1f\x8b",
        b"{\\rtf",
    ):
        if head.startswith(magic):
            return "binary"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = head.decode("utf-16", errors="ignore")
    else:
        if b"\x00" in head:
            return "binary"
        text = head.decode("latin-1")
    lowered = text.lstrip("\ufeff\xef\xbb\xbf \t\r\n").lower()
    if lowered.startswith(("<!doctype html", "<html")):
        return "html"
    if lowered.startswith(("<?xml", "<!--")) and "<html" in lowered:
        return "html"
    return None


def decode_text(data: bytes, name: str) -> tuple[str, str]:
    """Decode ``data`` and normalise newlines to LF.

    UTF-8 (with or without BOM) and UTF-16 with a BOM are tried first; bytes
    that are not valid UTF-8 fall back to cp1252, then latin-1, rather than
    failing.

    Returns:
        ``(text, encoding)``.

    Raises:
        ParseError: the data is binary (contains NUL bytes outside UTF-16).
    """
    if data.startswith(codecs.BOM_UTF8):
        text, encoding = data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace"), "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = data.decode("utf-16", errors="replace"), "utf-16"
    else:
        if b"\x00" in data:
            raise ParseError(f"{name}: looks like a binary file (contains NUL bytes), not text", source=name)
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            try:
                text, encoding = data.decode("cp1252"), "cp1252"
            except UnicodeDecodeError:
                text, encoding = data.decode("latin-1"), "latin-1"
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, encoding


def require_text(text: str, name: str) -> None:
    """Raise :class:`ParseError` if ``text`` is empty or whitespace only."""
    if not text.strip():
        raise ParseError(f"{name}: file is empty (no text to parse)", source=name)
