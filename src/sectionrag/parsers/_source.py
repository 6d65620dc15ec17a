"""Reading sources: paths or bytes, decoding text, sniffing the real file type.

The one place where a path is checked (:func:`check_path`): a missing file, a
directory and a special file (FIFO, socket, device) each raise
:class:`~sectionrag.errors.ParseError` at once; a special file is never opened.

Decoding (:func:`decode_text`): UTF-8 (with or without BOM) and UTF-16 and
UTF-32 with a BOM are decoded as such. Bytes that are not valid UTF-8 are decided by the
evidence: text with valid multi-byte UTF-8 sequences (at least as many as
invalid bytes) is UTF-8 with some damage, decoded with U+FFFD at the bad bytes
and a warning naming the file and the count; text without any valid multi-byte
sequence (or with far more invalid bytes than valid sequences) is in a legacy
code page: cp1252 where that reads as a Latin-script language, else the code
page charset-normalizer finds (:mod:`~sectionrag.parsers._encodings`), else
cp1252 (latin-1 where cp1252 has a hole). Bytes with NULs are UTF-32 or
UTF-16 without a BOM where they decode as such, and 7-bit ISO-2022 text is
decoded as ISO-2022-JP or -KR.
"""

from __future__ import annotations

import codecs
import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from sectionrag.errors import ParseError
from sectionrag.parsers._encodings import ASCII, decode_legacy, escaped_cjk, unmarked_unicode
from sectionrag.types import Document

__all__ = [
    "RawSource",
    "TextFormatParser",
    "check_parse_options",
    "check_path",
    "decode_text",
    "has_pdf_header",
    "looks_like_pdf",
    "read_head",
    "read_source",
    "sniff_kind",
]

logger = logging.getLogger("sectionrag.parsers")

_MAX_SNIFF = 4096
_SPECIAL = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)
_PDF_OBJECT = re.compile(rb"\d+\s+\d+\s+obj\b")
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)

#: parse options and the types they accept (``None`` allowed where listed)
_OPTION_TYPES: dict[str, tuple[type, ...]] = {
    "use_outline": (bool,),
    "remove_headers": (bool,),
    "drop_page_chrome": (bool,),
    "password": (str, type(None)),
}


@dataclass(frozen=True, slots=True)
class RawSource:
    """The bytes of a source and the name to record for it."""

    data: bytes
    name: str
    path: Path | None


def _special_kind(mode: int) -> str | None:
    for test, kind in _SPECIAL:
        if test(mode):
            return kind
    return None


def check_path(source: str | os.PathLike[str], label: str | None = None) -> Path:
    """Return ``source`` as a :class:`~pathlib.Path` once it is known to be a regular file.

    Raises:
        TypeError: ``source`` is not a path.
        ParseError: the path does not exist, is a directory, is a special file
            (FIFO, socket, device: refused without opening it) or cannot be examined.
    """
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a path or bytes, not {type(source).__name__}")
    path = Path(source)
    name = label or str(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise ParseError(f"{name}: no such file", source=name) from None
    except OSError as e:
        raise ParseError(f"{name}: cannot read file ({e.strerror or e})", source=name) from e
    if stat.S_ISDIR(mode):
        raise ParseError(f"{name}: is a directory, not a file", source=name)
    special = _special_kind(mode)
    if special is not None:
        raise ParseError(f"{name}: is {special}, not a regular file; refusing to read it", source=name)
    return path


def _read(path: Path, name: str, limit: int | None = None) -> bytes:
    """Read a regular file (opened without blocking, checked again once open)."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    except OSError as e:
        raise ParseError(f"{name}: cannot read file ({e.strerror or e})", source=name) from e
    with os.fdopen(fd, "rb") as fh:
        special = _special_kind(os.fstat(fd).st_mode)
        if special is not None:  # replaced between the check and the open
            raise ParseError(f"{name}: is {special}, not a regular file; refusing to read it", source=name)
        try:
            return fh.read() if limit is None else fh.read(limit)
        except OSError as e:
            raise ParseError(f"{name}: cannot read file ({e.strerror or e})", source=name) from e


def read_head(source: str | os.PathLike[str], size: int = _MAX_SNIFF, label: str | None = None) -> bytes:
    """Return the first ``size`` bytes of a regular file (see :func:`check_path`)."""
    path = check_path(source, label)
    return _read(path, label or str(path), size)


def read_source(source: str | os.PathLike[str] | bytes, name: str | None = None) -> RawSource:
    """Read ``source`` (a path or the bytes themselves) into memory.

    Raises:
        ParseError: see :func:`check_path`, or the file cannot be read.
        TypeError: ``source`` is neither a path nor bytes.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return RawSource(bytes(source), name or "<bytes>", None)
    path = check_path(source, name)
    label = name or str(path)
    return RawSource(_read(path, label), label, path)


def check_parse_options(options: dict[str, Any]) -> None:
    """Raise :class:`TypeError` for a parse option of the wrong type (``password=123``)."""
    for key, value in options.items():
        expected = _OPTION_TYPES.get(key)
        if expected is not None and not isinstance(value, expected):
            names = " or ".join("None" if t is type(None) else t.__name__ for t in expected)
            raise TypeError(f"parse option {key} must be {names}, not {type(value).__name__}")


def has_pdf_header(head: bytes) -> bool:
    """Tell whether ``%PDF-`` appears in the first kilobyte (where PDF readers look for it)."""
    return b"%PDF-" in head[:1024]


def looks_like_pdf(head: bytes) -> bool:
    """Tell whether ``head`` is the start of a real PDF: the header at byte 0, then PDF objects.

    Text that mentions ``%PDF-1.7`` (even on its first line) has no ``N 0 obj``
    after it; every PDF writer puts its first object within the first kilobytes.
    """
    return head.startswith(b"%PDF-") and _PDF_OBJECT.search(head, 5) is not None


def _marked_unicode(data: bytes) -> str | None:
    """Return ``"utf-32"`` or ``"utf-16"`` where ``data`` starts with that encoding's BOM, else ``None``.

    UTF-32 is looked for first: its little-endian BOM (``FF FE 00 00``) begins as UTF-16's.
    """
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


def sniff_kind(head: bytes) -> str | None:
    """Guess a file's kind from its first bytes.

    Returns:
        ``"pdf"`` (a real PDF, see :func:`looks_like_pdf`, whatever its name),
        ``"html"``, ``"binary"`` (a known non-text format or NUL bytes) or
        ``None`` when the bytes look like plain text (or are empty). Text that
        merely mentions ``%PDF-`` is text.
    """
    head = head[:_MAX_SNIFF]
    if looks_like_pdf(head):
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
    marked = _marked_unicode(head)
    if marked is not None:
        text = head.decode(marked, errors="ignore")
    elif b"\x00" in head:
        # UTF-16 or UTF-32 without a BOM (the head may end inside a character)
        unmarked = next(filter(None, (unmarked_unicode(head[: len(head) - cut]) for cut in range(4))), None)
        if unmarked is None:
            return "binary"
        text = unmarked[0]
    else:
        text = head.decode("latin-1")
    lowered = text.lstrip("\ufeff\xef\xbb\xbf \t\r\n").lower()
    if lowered.startswith(("<!doctype html", "<html")):
        return "html"
    if lowered.startswith(("<?xml", "<!--")) and "<html" in lowered:
        return "html"
    return None


def _decode_unknown(data: bytes, name: str) -> tuple[str, str, int]:
    """Decode bytes that are not valid UTF-8: damaged UTF-8 or a legacy 8-bit encoding."""
    text = data.decode("utf-8", errors="replace")
    replaced = text.count("\ufffd") - data.count(b"\xef\xbf\xbd")  # U+FFFD the file itself holds
    ascii_bytes = len(data) - len(data.translate(None, ASCII))
    valid = len(text) - ascii_bytes - replaced  # characters from valid multi-byte sequences
    if valid >= replaced:
        logger.warning(
            "%s: %d invalid UTF-8 byte sequence(s) replaced with U+FFFD (the rest is valid UTF-8)",
            name,
            replaced,
        )
        return text, "utf-8", replaced
    legacy, encoding = decode_legacy(data)
    if valid:
        logger.warning(
            "%s: not valid UTF-8 (%d invalid, %d valid multi-byte sequences); decoded as %s",
            name,
            replaced,
            valid,
            encoding,
        )
    return legacy, encoding, 0


def decode_text(data: bytes, name: str) -> tuple[str, str]:
    """Decode ``data`` and normalise newlines to LF (see the module docs for the rules).

    Returns:
        ``(text, encoding)``.

    Raises:
        ParseError: the data is binary (contains NUL bytes outside UTF-16).
    """
    text, encoding, _ = decode_with_errors(data, name)
    return text, encoding


def decode_with_errors(data: bytes, name: str) -> tuple[str, str, int]:
    """Like :func:`decode_text`, also returning how many bad bytes became U+FFFD."""
    errors = 0
    if data.startswith(codecs.BOM_UTF8):
        body = data[len(codecs.BOM_UTF8) :]
        text = body.decode("utf-8", errors="replace")
        encoding = "utf-8-sig"
        errors = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
        if errors:
            logger.warning("%s: %d invalid UTF-8 byte sequence(s) replaced with U+FFFD", name, errors)
    elif (marked := _marked_unicode(data)) is not None:
        text, encoding = data.decode(marked, errors="replace"), marked
    else:
        if b"\x00" in data:
            unmarked = unmarked_unicode(data)
            if unmarked is None:
                raise ParseError(
                    f"{name}: looks like a binary file (contains NUL bytes), not text", source=name
                )
            text, encoding = unmarked
        else:
            try:
                text, encoding = data.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                text, encoding, errors = _decode_unknown(data, name)
            else:
                text, encoding = escaped_cjk(data) or (text, encoding)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, encoding, errors


def require_text(text: str, name: str) -> None:
    """Raise :class:`ParseError` if ``text`` is empty or whitespace only."""
    if not text.strip():
        raise ParseError(f"{name}: file is empty (no text to parse)", source=name)


class TextFormatParser:
    """What the text and Markdown parsers share: reading, decoding, then :meth:`parse_text`.

    ``Document.text`` is the decoded file with LF newlines, so every offset is an
    offset into the text a user sees when opening the file.
    """

    #: the ``metadata["format"]`` of the documents this parser makes
    format: ClassVar[str] = "text"

    def parse(self, source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Document:
        """Parse a path or bytes into a :class:`~sectionrag.types.Document`.

        Raises:
            TypeError: ``source`` is neither a path nor bytes, or ``name`` is not a string.
            ParseError: the file is missing, not a regular file, binary, empty or whitespace only.
        """
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a string, not {type(name).__name__}")
        raw = read_source(source, name)
        text, encoding, errors = decode_with_errors(raw.data, raw.name)
        require_text(text, raw.name)
        metadata: dict[str, Any] = {"format": self.format, "encoding": encoding}
        if errors:
            metadata["decode_errors"] = errors
        return self.parse_text(text, source=raw.name, metadata=metadata)

    def parse_text(
        self, text: str, *, source: str = "<memory>", metadata: dict[str, Any] | None = None
    ) -> Document:
        """Build a :class:`~sectionrag.types.Document` from already decoded text."""
        raise NotImplementedError
