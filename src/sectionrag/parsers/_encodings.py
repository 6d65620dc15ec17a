"""Text in an encoding the file does not name: UTF-16/32 without a BOM, ISO-2022, legacy code pages.

:func:`~sectionrag.parsers._source.decode_with_errors` calls these where its
own rules (UTF-8, a BOM) do not decide:

- :func:`unmarked_unicode`: bytes with NULs that decode as UTF-32 or UTF-16
  (either byte order) into text (white space; no control, private-use or
  unassigned characters);
- :func:`escaped_cjk`: 7-bit bytes with ISO-2022 escape sequences (Japanese
  and Korean mail and old web pages);
- :func:`decode_legacy` reads text in a Latin script (accented letters between
  ASCII ones) in the Latin code page whose letters spell one language's
  alphabet (:func:`latin_code_page`: cp1252 unless another page reads clearly
  better, as Czech in cp1250 or Turkish in cp1254 do), and elsewhere
  :func:`guess_legacy` asks charset-normalizer (installed with pdfplumber)
  which code page other bytes are in: Cyrillic, Greek, Hebrew, Arabic, Thai,
  Chinese, Japanese, Korean, and Latin text in Central European code pages
  (a sign such as ``¹`` inside words). A guessed encoding is read as browsers
  read its label: GB2312 as GB18030, Shift_JIS as cp932, EUC-KR as cp949.

An HTML page's ``<meta charset>`` label is read by :func:`decode_label`, as
browsers read it.

Western text is never handed to the guesser: short Latin-script texts are where
statistical guessing errs (French read as Baltic, ``é`` as ``ķ``).
"""

from __future__ import annotations

import codecs
import logging
import re
import unicodedata
from collections import Counter

logger = logging.getLogger("sectionrag.parsers")

__all__ = ["decode_label", "decode_legacy", "escaped_cjk", "unmarked_unicode"]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
_WORD = re.compile(r"[^\W\d_]{3,}")
#: ISO-2022-JP and ISO-2022-KR designations of a double-byte set
_ISO2022 = ((b"\x1b$B", "iso2022_jp"), (b"\x1b$@", "iso2022_jp"), (b"\x1b$)C", "iso2022_kr"))
#: the bytes below 128: ``data.translate(None, ASCII)`` leaves the bytes above 127
ASCII = bytes(range(128))
_HIGH_RUN = re.compile(rb"[\x80-\xff]{3,}")
_MIN_HIGH = 12  # bytes above 127 needed before a text is judged not Western
#: a text is not Western where more than this share of its bytes above 127 run three or more together
_FOREIGN_SHARE = 0.3
_MIN_SIGNS = 10  # words with a sign inside needed before a decoding is judged by them
_GUESS_SAMPLE = 1 << 16  # bytes of non-ASCII lines the guesser judges
#: the code pages of Latin-script text that cp1252 reads with signs between letters
_CENTRAL_EUROPEAN = ("cp1250", "iso8859_2", "iso8859_16", "cp1257", "iso8859_13")
#: a letter, a sign cp1252 has at that byte, a letter: ``pøíli¹`` (Czech ``příliš`` in ISO-8859-2),
#: ``by³o`` (Polish ``było``); never in a Western word
_SIGN_IN_WORD = re.compile(r"[^\W\d_][\xa1-\xa6\xa9\xab-\xb3\xb6\xb8\xb9\xbb-\xbf\xd7\xf7](?=[^\W\d_])")
#: the code pages of Latin-script text :func:`latin_code_page` chooses among (cp1252 first)
_LATIN_PAGES = ("cp1252", "cp1250", "iso8859_2", "cp1254", "cp1257")
#: the share of letters an alphabet must cover before a code page other than cp1252 is taken,
#: and by how much more than cp1252's
_ALPHABET_SURE = 0.97
_ALPHABET_MARGIN = 0.04


def _alphabet(lower: str) -> frozenset[str]:
    """Return the letters of ``lower`` and their capitals (where a capital is one letter)."""
    return frozenset(lower) | {c.upper() for c in lower if len(c.upper()) == 1}


#: the letters beyond ASCII that each Latin-script language writes, without rare loan words
_ALPHABETS = {
    language: _alphabet(letters)
    for language, letters in {
        "french": "àâæçéèêëîïôœùûüÿ",
        "german": "äöüß",
        "spanish": "áéíñóúü",
        "portuguese": "áâãàçéêíóôõú",
        "italian": "àèéìíîòóùú",
        "catalan": "àçèéíïòóúü",
        "dutch": "áàäéèëíïóöúü",
        "danish and norwegian": "æøåéó",
        "swedish and finnish": "åäöé",
        "icelandic": "áðéíóúýþæö",
        "estonian": "äõöüšž",
        "latvian": "āčēģīķļņšūž",
        "lithuanian": "ąčęėįšųūž",
        "polish": "ąćęłńóśźż",
        "czech": "áčďéěíňóřšťúůýž",
        "slovak": "áäčďéíĺľňóôŕšťúýž",
        "croatian and slovene": "čćđšž",
        "hungarian": "áéíóöőúüű",
        "romanian": "ăâîșşțţ",
        "turkish": "çğıİöşüâî",
        "albanian": "çë",
    }.items()
}
#: the encodings that browsers read for a label (the WHATWG Encoding Standard): supersets
_SUPERSET = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "shift_jis": "cp932",
    "shift_jis_2004": "cp932",
    "shift_jisx0213": "cp932",
    "euc_kr": "cp949",
    "big5": "big5hkscs",
    "latin_1": "cp1252",
    "iso8859_1": "cp1252",
    "ascii": "cp1252",
    "tis_620": "cp874",
    "iso8859_11": "cp874",
    "iso8859_9": "cp1254",
}


def browser_encoding(label: str) -> str:
    """Return the codec browsers decode a charset label with: the label's superset where it has one.

    ``iso-8859-1`` and ``ascii`` read as cp1252, ``gb2312`` as GB18030,
    ``shift_jis`` as cp932, ``euc-kr`` as cp949 (the WHATWG Encoding Standard).
    A label Python does not know is returned as it is.
    """
    try:
        name = codecs.lookup(label).name.replace("-", "_")
    except LookupError:
        return label
    return _SUPERSET.get(name, name)


def decode_label(data: bytes, label: str) -> tuple[str, str] | None:
    """Return ``(text, encoding)`` for ``data`` read as browsers read ``label``, else as the label says.

    ``None`` where neither decodes it (or Python does not know the label). The
    label's own codec is the fallback: cp1252, which browsers read ``iso-8859-1``
    as, leaves five bytes undefined that ISO-8859-1 has.
    """
    for encoding in dict.fromkeys((browser_encoding(label), label)):
        try:
            return data.decode(encoding), encoding
        except (LookupError, UnicodeDecodeError):
            continue
    return None


def unmarked_unicode(data: bytes) -> tuple[str, str] | None:
    """Return ``(text, encoding)`` for UTF-32 or UTF-16 without a BOM, or ``None``.

    Tried where ``data`` holds NUL bytes: the first of UTF-32-LE/BE and
    UTF-16-LE/BE (by where the NULs fall) that decodes strictly into text
    (:func:`_plausible`).
    """
    candidates = []
    if len(data) % 4 == 0:
        candidates += ["utf-32-le", "utf-32-be"]
    if len(data) % 2 == 0:
        even, odd = data[0::2].count(0), data[1::2].count(0)
        candidates += ["utf-16-le", "utf-16-be"] if odd >= even else ["utf-16-be", "utf-16-le"]
    for encoding in candidates:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _plausible(text):
            return text, encoding
    return None


def _plausible(text: str) -> bool:
    """Tell whether text decoded from bytes with NULs reads as text, not as binary.

    Text has white space and no control, private-use or unassigned characters;
    bytes that are not text, read as UTF-16, hit some of these at once.
    """
    if not text or _CONTROL.search(text) is not None or not any(c.isspace() for c in text):
        return False
    return not any(unicodedata.category(c) in ("Co", "Cn", "Cs") for c in set(text))


def escaped_cjk(data: bytes) -> tuple[str, str] | None:
    """Return ``(text, encoding)`` for ISO-2022-JP or -KR bytes, or ``None``.

    Only 7-bit bytes that designate a double-byte set are tried; they decode
    strictly or not at all.
    """
    if b"\x1b" not in data:
        return None
    for marker, encoding in _ISO2022:
        if marker in data:
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError:
                continue
    return None


def decode_legacy(data: bytes) -> tuple[str, str]:
    """Decode bytes that are not UTF-8: ``(text, encoding)``.

    Where the bytes read as a Latin-script language, the Latin code page whose
    letters spell one language's alphabet best (:func:`latin_code_page`;
    cp1252, or latin-1 where cp1252 has a hole, unless another reads clearly
    better); cp1252 where fewer than a dozen bytes are above 127: too little to
    judge. Else the code page charset-normalizer finds; a guess that reads as
    another Latin code page is taken only where signs stood between letters (a
    list of accented letters, a stray byte in German text stay Western).
    """
    try:
        text, encoding = data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        text, encoding = data.decode("latin-1"), "latin-1"
    high = data.translate(None, ASCII)
    doubt = _doubt(data, text, high=len(high), defined=encoding == "cp1252")
    if doubt != "runs" and (latin := latin_code_page(data, high)) is not None:
        return latin
    if doubt is None:
        return text, encoding
    guessed = guess_legacy(data, _CENTRAL_EUROPEAN if doubt == "signs" else None)
    if guessed is None or (doubt != "signs" and _mostly_latin(guessed[0])):
        return text, encoding
    return guessed


def latin_code_page(data: bytes, high: bytes) -> tuple[str, str] | None:
    """Return ``(text, encoding)`` where a Latin code page other than cp1252 reads ``data`` clearly better.

    Each code page of :data:`_LATIN_PAGES` is scored by how much of what it
    reads in the bytes above 127 (letters, and signs or control characters
    against a letter) one language's alphabet covers (:data:`_ALPHABETS`):
    Czech in cp1250 reads in cp1252 as ``pøíli¹`` or ``vìtšina``, letters of
    no one language. Another page wins only with nearly all of it covered and
    clearly more than cp1252; ``None`` (keep cp1252) otherwise, and where fewer
    than a dozen letters are found: too few to judge. ``high`` holds the bytes
    of ``data`` above 127.
    """
    if len(high) < _MIN_HIGH:
        return None
    counts = Counter(high)
    west = _alphabet_score(data, counts, "cp1252")
    if west is None:
        return None
    best: tuple[float, str] | None = None
    for page in _LATIN_PAGES[1:]:
        score = _alphabet_score(data, counts, page)
        if score is not None and (best is None or score > best[0]):
            best = (score, page)
    if best is None or best[0] < _ALPHABET_SURE or best[0] < west + _ALPHABET_MARGIN:
        return None
    return data.decode(best[1]), best[1]


def _alphabet_score(data: bytes, high: Counter[int], page: str) -> float | None:
    """Return the share of the letters ``page`` reads in ``data`` that one language's alphabet covers.

    ``high`` counts the bytes above 127. Signs and control characters that
    stand against a letter count as letters no alphabet has (``¹`` in
    ``pøíli¹``); punctuation, and signs elsewhere, do not count. ``None`` where
    ``page`` leaves a byte undefined (for cp1252: where nothing else is
    judged) or fewer than :data:`_MIN_HIGH` letters are found.
    """
    letters: Counter[str] = Counter()
    strays = bytearray()
    for byte, n in high.items():
        try:
            char = bytes((byte,)).decode(page)
        except UnicodeDecodeError:
            if page != "cp1252":
                return None
            strays.append(byte)  # (cp1252's five holes: latin-1 reads them as control characters)
            continue
        if char.isalpha():
            letters[char] += n
        elif unicodedata.category(char)[0] in "SCN":
            strays.append(byte)
    if sum(letters.values()) < _MIN_HIGH:
        return None
    stray = 0
    if strays:
        signs = b"[" + re.escape(bytes(strays)) + b"]"
        # (any byte above 127 stands for a letter here: the page reads most of them as letters)
        against = rb"(?<=[A-Za-z\x80-\xff])" + signs + b"|" + signs + rb"(?=[A-Za-z\x80-\xff])"
        stray = len(re.findall(against, data))
    covered = max(sum(n for c, n in letters.items() if c in alphabet) for alphabet in _ALPHABETS.values())
    return covered / (sum(letters.values()) + stray)


def _doubt(data: bytes, text: str, *, high: int, defined: bool) -> str | None:
    """Return why ``data``, read as ``text`` through cp1252, is not in a Latin script, or ``None``.

    Western languages put an accented letter here and there between ASCII
    letters; other scripts (and double-byte encodings) write whole words in bytes
    above 127 (``"runs"``) and use bytes cp1252 leaves undefined
    (``"undefined"``, where ``defined`` is false). A Latin-script text in another
    code page shows signs between letters (``"signs"``: ``¹`` where ISO-8859-2
    has ``š``). ``high`` counts the bytes above 127.
    """
    if high < _MIN_HIGH:
        return None
    if not defined:
        return "undefined"
    in_runs = sum(len(m) for m in _HIGH_RUN.findall(data))
    if in_runs > _FOREIGN_SHARE * high:
        return "runs"
    signs = len(_SIGN_IN_WORD.findall(text))
    if signs >= _MIN_SIGNS and signs * 10 >= sum(1 for word in _WORD.findall(text) if not word.isascii()):
        return "signs"
    return None


def _mostly_latin(text: str) -> bool:
    """Tell whether most non-ASCII letters of ``text`` are Latin letters."""
    counts = Counter(c for c in text if c > "\x7f" and c.isalpha())
    latin = sum(n for c, n in counts.items() if unicodedata.name(c, "").startswith("LATIN"))
    return 2 * latin > sum(counts.values())


def _non_ascii_lines(data: bytes, limit: int = _GUESS_SAMPLE) -> bytes:
    """Return the lines of ``data`` that hold non-ASCII bytes, up to about ``limit`` bytes.

    The guesser samples what it is given; in a page of markup or code the few
    lines of prose would be missed.
    """
    out = bytearray()
    for line in data.splitlines(keepends=True):
        if not line.isascii():
            out += line
            if len(out) >= limit:
                break
    return bytes(out)


def guess_legacy(data: bytes, among: tuple[str, ...] | None = None) -> tuple[str, str] | None:
    """Return ``(text, encoding)`` as charset-normalizer reads ``data``, or ``None``.

    Args:
        data: The bytes.
        among: The code pages to choose from (default: all it knows).

    ``None`` where charset-normalizer is not installed (a warning says so) or
    finds no encoding.
    """
    try:
        from charset_normalizer import from_bytes
    except ImportError:
        logger.warning(
            "charset-normalizer is not installed: text that is neither UTF-8 nor a Western code page "
            "decodes as cp1252; pip install charset-normalizer"
        )
        return None
    isolation = list(among) if among else None
    best = from_bytes(_non_ascii_lines(data), cp_isolation=isolation).best()
    best = best or from_bytes(data, cp_isolation=isolation).best()
    if best is None:
        return None
    # (the guesser may have judged a sample only: the whole may not decode)
    return decode_label(data, codecs.lookup(best.encoding).name.replace("-", "_"))
