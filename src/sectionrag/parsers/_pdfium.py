"""Low-level PDF text extraction with pypdfium2: lines with boxes and font facts.

One call fetches a page's whole text; boxes come from pdfium's text
rectangles (one per text run), and font size and weight are read once per
line piece, never per character. That keeps extraction close to the speed of
pdfium's plain text while giving the layout and heading code what it needs.
The one exception: a page that draws CJK text in a font it does not embed is
measured character by character on the PDF's own metrics (``_CharBoxes``).
"""

from __future__ import annotations

import ctypes
import itertools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from sectionrag.parsers.headings import is_all_caps

__all__ = ["TEX_PRODUCER", "PageFrame", "PdfLine", "extract_page_lines"]

# pdfium marks a hyphen at the end of a line with U+FFFE and may run the next text object
# (a page number, the next line) on without a break: end the line after the marker
_LINE_BREAK = re.compile(r"\r\n|\r|\n|(?<=\ufffe)(?=.)")
# a typewriter (code) face: listings and inline code, set apart from the text's own faces (URW's
# Nimbus Mono L is "NimbusMonL"; TeX's typewriter faces end in "tt" and a size: CMSLTT10, SFTT1000)
CODE_FONT = re.compile(
    r"courier|mono|nimbusmon|consol|typewriter|code|cmtt|lmtt|tt\d|menlo|inconsolata", re.I
)
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|bx\d|bx$|cmbx|cmb\d|-b\b|,b\b|medi", re.IGNORECASE)
# a face its name calls regular ("LMRoman10-Regular", "TimesNewRomanPSMT", "CMR10", "Utopia-Book"), or
# one of the regular text faces of Chinese and Japanese ("SimSun", "FangSong", "KaiTi", "MingLiU",
# "MS-Mincho"; not the sans "SimHei", which sets their headings): pdfium's weight, estimated from the
# font's stem width, may still read 700 or more for it
_REGULAR_NAME = re.compile(
    r"regular|regu\b|roman|book|normal|light|thin|cmr\d|cmtt\d|simsun|fangsong|simfang|kaiti|simkai|mingliu|mincho",
    re.IGNORECASE,
)
_ITALIC_NAME = re.compile(r"italic|oblique|\bti\b|cmti|cmsl|-i\b|,i\b|slant", re.IGNORECASE)
# a PostScript name whose style names the slant alone ("Arial-ItalicMT", "Times-Italic",
# "Helvetica-Oblique", "Calibri,Italic"): the family's regular italic, whatever weight pdfium
# estimates (645 for a word processor's Arial-ItalicMT)
_SLANT_ONLY_NAME = re.compile(r"[-,](?:italic|oblique|ital|it)(?:mt|ps)?$", re.IGNORECASE)


@dataclass(slots=True)
class PdfLine:
    """One line (or one cell of a row) of a page, in top-down coordinates.

    Attributes:
        text: The line's text (pdfium's, not yet cleaned).
        x0: Left edge.
        x1: Right edge.
        top: Top edge, measured from the top of the page.
        bottom: Bottom edge, measured from the top of the page.
        size: Font size (points), the median of the first, middle and last
            characters' (their largest for all-capital text, so that faked small
            capitals keep the size of their capitals).
        bold: At least two of those three characters use a bold face.
        italic: At least two of them use an italic face.
        font: Name of the line's font: that of its middle and last characters when
            they share one, else that of its first.
        page: 0-based page index.
        row: Index of the visual row on the page (pieces of one row share it).
        role: ``body``, ``furniture`` (header, footer, page number), ``heading`` or ``table``.
        column_top: The line starts the right-hand column of a two-column band.
        run_in: The line is a head in its own, larger face split off the text
            that it starts on the same baseline (a margin heading).
        lead: The line is a numbered head in bold or italics split off the
            upright text that it runs into (``9.1. Dots.`` before its paragraph).
        title_x: Where the title starts after the line's opening section number
            (``2.2 Various ...``: the left edge of ``V``), else ``None``; a
            title that wraps under a hanging indent goes on there.
    """

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool
    italic: bool
    font: str
    page: int
    row: int = 0
    role: str = "body"
    cells: list[str] = field(default_factory=list)
    column_top: bool = False
    run_in: bool = False
    lead: bool = False
    title_x: float | None = None
    ruled: bool = False

    @property
    def height(self) -> float:
        """Height of the line's box."""
        return self.bottom - self.top


class _FontCache:
    """Font facts per font name, read once per name."""

    def __init__(self, raw: Any) -> None:
        self._raw = raw
        self._buf = ctypes.create_string_buffer(256)
        self._flags = ctypes.c_int(0)
        self.names: dict[bytes, tuple[str, bool | None, bool]] = {}

    def info(self, textpage: Any, index: int) -> tuple[str, bool, bool]:
        raw = self._raw
        # (ctypes passes the int by reference itself, faster than through a byref object)
        n = raw.FPDFText_GetFontInfo(textpage, index, self._buf, 256, self._flags)
        key = self._buf.raw[: max(n - 1, 0)] if n > 0 else b""
        flags = self._flags.value
        known = self.names.get(key)
        if known is None:
            base = key.decode("latin-1", "replace").split("+", 1)[-1]
            # (the name says bold: True; it says regular: None; it says neither: False)
            regular = _REGULAR_NAME.search(base) or _SLANT_ONLY_NAME.search(base)
            bold_name = True if _BOLD_NAME.search(base) else None if regular else False
            known = self.names[key] = (base, bold_name, bool(_ITALIC_NAME.search(base)))
        base, bold_name, italic_name = known
        # the weight is asked only when the name and flags leave it open
        bold = (
            bold_name is True
            or bool(flags & (1 << 18))
            or (bold_name is False and raw.FPDFText_GetFontWeight(textpage, index) >= 600)
        )
        italic = bool(flags & (1 << 6)) or italic_name
        return base, bold, italic


Box = tuple[float, float, float, float]  # left, top, right, bottom, top-down


@dataclass(frozen=True)
class PageFrame:
    """How a page's user space shows: its rotation (``/Rotate``) and its size before rotation.

    pdfium measures characters in user space; a page rotated a quarter turn
    (a landscape page stored as a portrait one, its text drawn upwards) shows
    that space turned, and its lines run across the page only once turned too.
    """

    rotation: int  # 0, 90, 180 or 270, clockwise
    width: float  # of the unrotated page
    height: float

    @classmethod
    def of(cls, page: Any) -> PageFrame:
        """Return a pypdfium2 page's frame (its size as pdfium reports it is the rotated one)."""
        rotation = int(page.get_rotation()) % 360
        width, height = float(page.get_width()), float(page.get_height())
        return cls(rotation, height, width) if rotation in (90, 270) else cls(rotation, width, height)

    def box(self, left: float, bottom: float, right: float, top: float) -> Box:
        """Return a user-space box (y up) as it shows on the page: left, top, right, bottom, top-down."""
        if self.rotation == 90:
            return (bottom, left, top, right)
        if self.rotation == 180:
            return (self.width - right, bottom, self.width - left, top)
        if self.rotation == 270:
            return (self.height - top, self.width - right, self.height - bottom, self.width - left)
        return (left, self.height - top, right, self.height - bottom)

    def user_point(self, x: float, y: float) -> tuple[float, float]:
        """Return the user-space point (y up) that shows at ``(x, y)`` (top-down)."""
        if self.rotation == 90:
            return (y, x)
        if self.rotation == 180:
            return (self.width - x, y)
        if self.rotation == 270:
            return (self.width - y, self.height - x)
        return (x, self.height - y)


# CJK ideographs, kana, hangul, their punctuation and full-width forms
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
# kana, ideographs and hangul: letters no Latin font has glyphs for (punctuation and full-width forms aside)
_CJK_LETTER = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# a word space is narrower than this (in line heights): a wider gap between two characters ends a run
_RUN_GAP = 0.45


_OBJECT_ADDRESS: list[Any] = []


def _object_address(raw: Any) -> Any:
    """``FPDFText_GetTextObject`` returning the object's address as an int (cheap to compare)."""
    if not _OBJECT_ADDRESS:
        function = raw.FPDFText_GetTextObject
        prototype = ctypes.CFUNCTYPE(ctypes.c_void_p, function.argtypes[0], ctypes.c_int)
        address = ctypes.cast(function, ctypes.c_void_p).value
        if address is None:
            raise RuntimeError("pypdfium2 gives no address for FPDFText_GetTextObject")
        _OBJECT_ADDRESS.append(prototype(address))
    return _OBJECT_ADDRESS[0]


class _CharBoxes:
    """Boxes of one page's characters, top-down ``(left, top, right, bottom)``.

    pdfium measures a character's box on the glyph outline it draws. A font
    that a PDF names without embedding it is drawn with a font of the
    machine's, and for CJK text pdfium's built-in fonts have no glyphs: the
    boxes are zero high where the machine has no such font and follow the
    substitute's outlines where it has one, so lines, gaps and levels would
    change with the fonts installed. A page that draws CJK text in a font it
    does not embed is measured on the PDF's own metrics instead (each
    character's origin and advance width, its font's ascent and descent), the
    same on every machine; every other page keeps pdfium's glyph boxes.
    """

    def __init__(self, raw: Any, tp: Any, frame: PageFrame, text: str, fonts: _FontCache) -> None:
        self._raw = raw
        self._fonts = fonts
        self._tp = tp
        self._frame = frame
        self._doubles = tuple(ctypes.c_double() for _ in range(4))
        self._matrix = raw.FS_MATRIX()
        self._float = ctypes.c_float()
        self._extents: dict[int | None, tuple[float, float]] = {}  # a font's ascent and descent per em
        self._advances: dict[tuple[int | None, int], float] = {}  # a character's advance per em
        self.metric: dict[int, Box] | None = None  # the current line's boxes, where it is measured so
        self.undrawn: set[str] = set()  # fonts whose CJK text the machine has no glyphs for
        # (measured upright only: a turned page keeps pdfium's boxes)
        self.measured = self._draws_borrowed_cjk(text) and frame.rotation == 0

    def _font(self, obj: Any) -> tuple[Any, int | None]:
        """Return a text object's font handle and a key for it."""
        font = self._raw.FPDFTextObj_GetFont(obj) if obj else None
        return font, (ctypes.cast(font, ctypes.c_void_p).value if font else None)

    def _draws_borrowed_cjk(self, text: str) -> bool:
        """Tell whether a line of ``text`` draws its first CJK character in a font the PDF does not embed.

        Each such font whose CJK text the machine has no glyphs for goes into ``undrawn``.
        """
        if not hasattr(self._raw, "FPDFText_GetTextObject"):
            return False  # (a pdfium older than the call: its glyph boxes it is)
        seen: set[int | None] = set()
        borrowed = False
        line_end = -1
        for m in _CJK.finditer(text):
            if m.start() < line_end:
                continue
            newline = text.find("\n", m.start())
            line_end = newline if newline >= 0 else len(text)
            font, key = self._font(self._raw.FPDFText_GetTextObject(self._tp, m.start()))
            if key in seen:
                continue
            seen.add(key)
            if font and not self._raw.FPDFFont_GetIsEmbedded(font):
                borrowed = True
                if self._glyphless(text, m.start()):
                    self.undrawn.add(self._fonts.info(self._tp, m.start())[0] or "?")
        return borrowed

    def _glyphless(self, text: str, first: int) -> bool:
        """Tell whether pdfium draws the CJK letters from ``first`` on without glyphs (flat boxes).

        That is what it does when the machine has no font with CJK glyphs: each
        box is a line at the baseline (under a twentieth of an em high), and
        pdfium leaves out of the page's text a text object that holds one such
        character alone (its box is zero wide).
        """
        raw, tp = self._raw, self._tp
        sampled = 0
        for m in _CJK_LETTER.finditer(text, first):
            i = m.start()
            box = self.box(i)
            size = _char_size(raw, tp, i, self._matrix)
            if box is not None and box[3] - box[1] > 0.05 * size:
                return False
            sampled += 1
            if sampled == 3:
                break
        return sampled > 0

    def _extent(self, font: Any, key: int | None) -> tuple[float, float]:
        known = self._extents.get(key)
        if known is None:
            raw, ascent, descent = self._raw, ctypes.c_float(), ctypes.c_float()
            if (
                font
                and raw.FPDFFont_GetAscent(font, 1.0, ctypes.byref(ascent))
                and raw.FPDFFont_GetDescent(font, 1.0, ctypes.byref(descent))
                and ascent.value > 0
            ):
                known = (ascent.value, descent.value)
            else:
                known = (0.88, -0.12)  # an ideographic em box
            self._extents[key] = known
        return known

    def _advance(self, font: Any, key: int | None, char: int) -> float | None:
        """Return a character's advance width per em, from the PDF's widths (None where unknown)."""
        found = self._advances.get((key, char))
        if found is None:
            if not font or not self._raw.FPDFFont_GetGlyphWidth(font, char, 1.0, ctypes.byref(self._float)):
                return None
            found = self._advances[key, char] = self._float.value
        return found if found > 0 else None

    def read_line(self, text: str, start: int, end: int) -> list[Box] | None:
        """Measure ``text[start:end]`` on the PDF's metrics where its page needs it; return its runs' boxes.

        Returns None (and leaves the line to pdfium's boxes) on a page that
        needs no such measure. A run is a stretch of characters on one level
        with no gap wider than a word space.
        """
        self.metric = None
        if not self.measured:
            return None
        raw, tp, height = self._raw, self._tp, self._frame.height
        object_at = _object_address(raw)
        x, y = self._doubles[:2]
        loose = raw.FS_RECTF()
        boxes: dict[int, Box] = {}
        runs: list[Box] = []
        address = None  # the text object of the last character read, and its font, size and extent
        font = key = None
        size = ascent = descent = 0.0
        for i in range(start, end):
            char = text[i]
            if char.isspace() or not raw.FPDFText_GetCharOrigin(tp, i, x, y):
                continue
            here = object_at(tp, i)
            if here != address or address is None:
                address = here
                font, key = self._font(raw.FPDFText_GetTextObject(tp, i))
                size = _char_size(raw, tp, i, self._matrix)
                ascent, descent = self._extent(font, key)
            advance = self._advance(font, key, ord(char))
            left = x.value
            if advance is not None:
                right = left + advance * size
            elif raw.FPDFText_GetLooseCharBox(tp, i, loose):
                right = max(loose.right, left)
            else:
                continue
            box = (left, height - (y.value + ascent * size), right, height - (y.value + descent * size))
            boxes[i] = box
            if runs:
                last = runs[-1]
                high = last[3] - last[1]
                if last[1] <= (box[1] + box[3]) / 2 <= last[3] and -high < left - last[2] < _RUN_GAP * high:
                    runs[-1] = (last[0], min(last[1], box[1]), max(last[2], right), max(last[3], box[3]))
                    continue
            runs.append(box)
        if not boxes:
            return None
        self.metric = boxes
        return runs

    def box(self, index: int) -> Box | None:
        """Return character ``index``'s box, or None where pdfium has none."""
        if self.metric is not None and index in self.metric:
            return self.metric[index]
        left, right, bottom, top = self._doubles
        if not self._raw.FPDFText_GetCharBox(self._tp, index, left, right, bottom, top):
            return None
        return self._frame.box(left.value, bottom.value, right.value, top.value)

    def index_at(self, x: float, y: float) -> int:
        """Return the index of the character at ``(x, y)`` (top-down), or a negative number."""
        if self.metric is not None:
            for i, (left, top, right, bottom) in self.metric.items():
                if left <= x <= right and top <= y <= bottom:
                    return i
        user_x, user_y = self._frame.user_point(x, y)
        return int(self._raw.FPDFText_GetCharIndexAtPos(self._tp, user_x, user_y, 1.0, 1.0))


def _char_size(raw: Any, textpage: Any, index: int, matrix: Any) -> float:
    """Return the size character ``index`` is drawn at: its font size times its matrix's scale."""
    return (raw.FPDFText_GetFontSize(textpage, index) or 0.0) * _matrix_scale(raw, textpage, index, matrix)


def _matrix_scale(raw: Any, textpage: Any, index: int, matrix: Any) -> float:
    """Return the vertical scale of a character's matrix (1 when pdfium cannot tell).

    Some producers (cairo, for one) set every font at size 1 and scale it with
    the text matrix; the size a character is drawn at is its font size times this.
    """
    if raw.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix)):
        scale = float((matrix.c * matrix.c + matrix.d * matrix.d) ** 0.5)
        if scale > 0:
            return scale
    return 1.0


def _page_text(raw: Any, textpage: Any, count: int) -> str:
    buf = (ctypes.c_ushort * (count + 1))()
    written = raw.FPDFText_GetText(textpage, 0, count, buf)
    data = ctypes.string_at(buf, max(written - 1, 0) * 2)
    return data.decode("utf-16-le", errors="replace")


# a producer or creator of TeX's: pdfTeX, XeTeX (xdvipdfmx), LuaTeX, dvipdfm, dvips
TEX_PRODUCER = re.compile(r"tex|dvip", re.IGNORECASE)
# a rule short and thin enough to be an underscore that a font draws as a rule (points)
_RULE_MAX_HEIGHT = 1.5
_RULE_WIDTH = (1.0, 15.0)
# pages with more objects than this (a plot's thousands of paths) are not searched for such rules
_RULE_SCAN_LIMIT = 20_000


def _with_drawn_underscores(raw: Any, page: Any, tp: Any, text: str) -> str:
    r"""Return ``text`` with an underscore for each space that stands for one drawn as a rule.

    LaTeX's default (OT1) encoding has no underscore glyph: ``\_`` draws a
    short rule on the baseline, and the text layer reads a gap there
    (``flann build index`` for ``flann_build_index``). A rule a third of an em
    to an em wide on the baseline, that fills the gap between two characters
    of a line which pdfium reads as a space, is that underscore. The text keeps
    its length: each index still names pdfium's character. Listing a page's
    objects costs a fifth of reading its text where every word is an object of
    its own (a filing), so only PDFs that TeX made are read for it.
    """
    count = raw.FPDFPage_CountObjects(page)
    if count <= 0 or count > _RULE_SCAN_LIMIT:
        return text
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    rules: list[tuple[float, float, float, float]] = []
    for k in range(count):
        obj = raw.FPDFPage_GetObject(page, k)
        if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
            continue
        if not raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
            continue
        width = right.value - left.value
        if top.value - bottom.value <= _RULE_MAX_HEIGHT and _RULE_WIDTH[0] <= width <= _RULE_WIDTH[1]:
            rules.append((left.value, bottom.value, right.value, top.value))
    if not rules:
        return text
    chars = list(text)
    box = [ctypes.c_double() for _ in range(4)]
    x, y = ctypes.c_double(), ctypes.c_double()
    matrix = raw.FS_MATRIX()
    for r_left, r_bottom, r_right, r_top in rules:
        # (pdfium's tolerance reaches half its value either side; the nearest character may be the
        # gap's space itself)
        i = int(raw.FPDFText_GetCharIndexAtPos(tp, r_left - 0.5, r_top + 2.0, 6.0, 6.0))
        if 0 < i < len(text) and text[i] == " ":
            i -= 1
        if not 0 <= i < len(text) - 2 or text[i + 1] != " " or text[i].isspace() or text[i + 2].isspace():
            continue
        size = _char_size(raw, tp, i, matrix)
        if not 0.2 * size <= r_right - r_left <= 0.7 * size:
            continue
        if not raw.FPDFText_GetCharBox(tp, i, *box) or not raw.FPDFText_GetCharOrigin(tp, i, x, y):
            continue
        before_right = box[1].value
        if not raw.FPDFText_GetCharBox(tp, i + 2, *box):
            continue
        after_left = box[0].value
        abuts = -0.5 <= r_left - before_right <= 0.2 * size and -0.5 <= after_left - r_right <= 0.2 * size
        # (an underline lies lower, a strike-out higher: either may fill a gap between two words)
        base = y.value
        on_baseline = (
            base - 0.1 * size <= r_bottom <= base + 0.03 * size
            and base - 0.02 * size <= r_top <= base + 0.15 * size
        )
        if abuts and on_baseline:
            chars[i + 1] = "_"
    return "".join(chars)


# letters of the scripts written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko, and the
# presentation forms)
RTL_LETTERS = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
# a section number opening a right-to-left line, as read in the order its pieces were set
_RTL_NUMBER = re.compile(rf"[\d.\-\u2212\u2013 ]*\d[\d.\-\u2212\u2013 ]*(?=[{RTL_LETTERS}])")
_WELL_FORMED = re.compile(r"\d{1,3}(?:[.\-\u2212]\d{1,3})* $")
_NUMBER_PIECE = re.compile(r"\d+|[.\-\u2212\u2013]")


def _rtl_number_first(boxes: _CharBoxes, text: str, start: int) -> str:
    """Put a right-to-left line's opening section number back together, read from right to left.

    A Persian thesis's "2-3" (chapter 2, section 3, the chapter on the right)
    may come out as "\u22122 3", its pieces in the order they were set; ordered by
    where they stand, right to left, they read "2\u22123" again. ``text`` is the
    stripped line, its first character at index ``start`` of the page's text.
    """
    found = _RTL_NUMBER.match(text)
    if found is None or _WELL_FORMED.fullmatch(found.group()) or len(set(found.group().split())) == 1:
        return text  # (a number drawn twice over itself, as a shadow or a bold, is the same both times)
    pieces = []
    for piece in _NUMBER_PIECE.finditer(found.group()):
        box = boxes.box(start + piece.start())
        if box is None:
            return text
        pieces.append((-box[0], piece.group()))
    if sum(1 for _, p in pieces if p[0].isdigit()) < 2:
        return text
    number = "".join(p for _, p in sorted(pieces)).strip(".-\u2212\u2013")
    return f"{number} {text[found.end() :]}"


def _line_text(text: str, paired: bool) -> str:
    """Return a line's text as read: surrogate pairs joined (where the page has any), accents composed."""
    if paired:
        text = _joined_pairs(text)
    if _SPLIT_ACCENT.search(text) is not None:
        text = _composed_accents(text)
    return text


def _joined_pairs(text: str) -> str:
    """Join surrogate pairs into the characters they encode (math italic x, U+1D465); a lone half: U+FFFD."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


# spacing accents as TeX's old (OT1) fonts set them, a glyph of their own before their letter
# ("Cap\u00b4\u0131tulo"), or after it for a cedilla ("Introduc\u00b8\u00e3o"), and the combining
# marks they stand for
_ACCENT_BEFORE = {
    "\u00b4": "\u0301",  # acute
    "\u02c6": "\u0302",  # circumflex
    "\u02dc": "\u0303",  # tilde
    "\u00a8": "\u0308",  # diaeresis
    "\u02c7": "\u030c",  # caron
    "\u02d8": "\u0306",  # breve
    "\u02da": "\u030a",  # ring
    "\u02dd": "\u030b",  # double acute
}
# (vowels only, but for the tilde's n and the caron's consonants: an acute used as an apostrophe,
# "it\u00b4s", stays)
_ACCENTED = {
    "\u0301": "aeiouyAEIOUY\u0131",
    "\u0302": "aeiouAEIOU\u0131",
    "\u0303": "aonAON",
    "\u0308": "aeiouyAEIOUY\u0131",
    "\u030c": "cdenrstzCDENRSTZ",
    "\u0306": "aguAGU",
    "\u030a": "auAU",
    "\u030b": "ouOU",
}
_SPLIT_ACCENT = re.compile("([\u00b4\u02c6\u02dc\u00a8\u02c7\u02d8\u02da\u02dd])(\\w)|([cCsStT])\u00b8")


def _composed_accent(m: re.Match[str]) -> str:
    if m.group(3) is not None:
        composed = unicodedata.normalize("NFC", m.group(3) + "\u0327")  # a cedilla after its letter
    else:
        mark, letter = _ACCENT_BEFORE[m.group(1)], m.group(2)
        if letter not in _ACCENTED[mark]:
            return m.group(0)
        composed = unicodedata.normalize("NFC", letter.replace("\u0131", "i") + mark)
    return composed if len(composed) == 1 else m.group(0)


# a spacing accent that pdfium reads after its word, or at the line's end ("SUMARIO \u00b4",
# "Introduc\u00b8ao\u02dc", "10A\u02da"): TeX raised it over its letter, and pdfium's order put it last
_STRAY_ACCENT = re.compile("[\u00b4\u02c6\u02dc\u00a8\u02c7\u02d8\u02da\u02dd](?!\\w)")


def _placed_accents(boxes: _CharBoxes, piece: str, offset: int) -> str:
    """Compose each stray spacing accent of ``piece`` with the letter it is drawn over.

    ``offset`` is the piece's index in the page text. The letter is the one of
    the piece whose box holds the accent's centre across and lies under it; a
    letter the accent does not go on (a math hat over ``\u03b2``, a tilde
    before ``/bin``) keeps the accent where it is read.
    """
    chars = list(piece)
    drop: set[int] = set()
    for m in _STRAY_ACCENT.finditer(piece):
        j = m.start()
        accent = boxes.box(offset + j)
        if accent is None:
            continue
        centre = (accent[0] + accent[2]) / 2
        mark = _ACCENT_BEFORE[m.group()]
        for k, ch in enumerate(chars):
            if k == j or ch not in _ACCENTED[mark]:
                continue
            letter = boxes.box(offset + k)
            # (boxes are top-down: the accent ends above the letter's top, or just inside it)
            if letter is None or not letter[0] <= centre <= letter[2]:
                continue
            if accent[3] > letter[1] + 0.3 * (letter[3] - letter[1]):
                continue
            composed = unicodedata.normalize("NFC", ch.replace("\u0131", "i") + mark)
            if len(composed) == 1:
                chars[k] = composed
                drop.add(j)
                if j > 0 and chars[j - 1] == " " and (j + 1 == len(chars) or chars[j + 1].isspace()):
                    drop.add(j - 1)  # (the space pdfium read before the accent)
            break
    return "".join(c for i, c in enumerate(chars) if i not in drop)


def _composed_accents(text: str) -> str:
    """Join each spacing accent set as a glyph of its own to its letter (``Cap\u00b4\u0131tulo``)."""
    return _SPLIT_ACCENT.sub(_composed_accent, text)


def _middle_char(piece: str, offset: int) -> int:
    """Index (in the page text) of a non-space character near the middle of ``piece``."""
    mid = len(piece) // 2
    for k in range(mid, len(piece)):
        if not piece[k].isspace():
            return offset + k
    for k in range(mid - 1, -1, -1):
        if not piece[k].isspace():
            return offset + k
    return offset


def _looks_letter_spaced(text: str) -> bool:
    """Tell whether a line reads as letters set apart (``S O M E K I N D``): four or more, mostly single."""
    tokens = text.split()
    singles = sum(1 for t in tokens if len(t) == 1 and t.isalpha())
    return singles >= 4 and singles >= 0.6 * len(tokens)


def _join_spaced_letters(boxes: _CharBoxes, piece: str, offset: int) -> str | None:
    """Rebuild a letter-spaced line from its glyph boxes: letters close together, words apart.

    Letter-spaced capitals (a chapter or part title, ``L I S T O F TA B L E S``)
    come out of pdfium with a space after every letter. The gaps between the
    glyphs tell letters from words: a gap at least a quarter of the line's
    height wider than the usual letter gap starts a word.
    """
    glyphs: list[tuple[str, float, float, float]] = []  # (char, left, right, height)
    for k, ch in enumerate(piece):
        if ch.isspace():
            continue
        box = boxes.box(offset + k)
        if box is None:
            return None
        glyphs.append((ch, box[0], box[2], box[3] - box[1]))
    if len(glyphs) < 4:
        return None
    gaps = [b[1] - a[2] for a, b in itertools.pairwise(glyphs)]
    usual = sorted(gaps)[len(gaps) // 2]
    height = sorted(g[3] for g in glyphs)[len(glyphs) // 2]  # not a large chapter number's
    if height <= 0:
        return None
    out = [glyphs[0][0]]
    for gap, glyph in zip(gaps, glyphs[1:], strict=True):
        if gap > usual + 0.25 * height:
            out.append(" ")
        out.append(glyph[0])
    return "".join(out)


def _run_in_cut(
    raw: Any,
    tp: Any,
    text: str,
    fonts: _FontCache,
    rects: list[Box],
    first: int,
    end: int,
    size: float,
    boxes: _CharBoxes,
) -> int:
    """Return where the text starts after a head in its own face that leads the line, else -1.

    The head is the line's first text runs, up to a gap of at least half its
    size (wider than a word space): one to four words in a font family other
    than the text's and larger than the text (a section number a quad before
    its title, or a bold run-in head at the text's size, stays in the line; so
    does a name before code set smaller than the text).
    """
    wide = [
        (ra, rb)
        for ra, rb in itertools.pairwise(rects[:5])
        if rb[0] - ra[2] >= 0.5 * size and abs(rb[1] - ra[1]) < size
    ]
    if not wide:
        return -1
    rb = wide[0][1]
    x = rb[0] + min(0.5, (rb[2] - rb[0]) / 2)
    idx = boxes.index_at(x, (rb[1] + rb[3]) / 2)
    if not first < idx < end or not 0 < len(text[first:idx].split()) <= 4:
        return -1
    head_font = fonts.info(tp, first)[0]
    if not head_font or sum(map(str.isalpha, text[first:idx])) < 2:
        return -1
    # the text's face: the first of the rest's first, middle and last characters in another
    # family (its first letter may be an initial, a name in it may be set in the head's face)
    rest = text[idx:end].rstrip()
    if len(rest.split()) < 2:
        return -1  # a word after the head is no paragraph run into it (an overload's "[1/3]")
    for sample in (idx, _middle_char(rest, idx), idx + len(rest) - 1):
        text_font = fonts.info(tp, sample)[0]
        if text_font and font_family(text_font) != font_family(head_font):
            break
    else:
        return -1
    if CODE_FONT.search(text_font):
        return -1
    text_size = _char_size(raw, tp, sample, raw.FS_MATRIX())
    if not size >= 1.12 * text_size > 0:
        return -1
    return idx


# a section number opening a line, then its title: "2.2 ", "3. ", "A. ", "IV. "
_SECTION_LABEL = re.compile(r"(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.|[IVXLC]{1,6}\.)[ \t\u00a0]+(?=\S)")
# a sub-section's number (two levels or more), or a number and a parenthesis, and a word:
# "9.1. Multiple integral signs. \\iint ...", IEEE's "1) Penalized least squares: The ..."
_LEAD_NUMBER = re.compile(r"(?:\d{1,3}(?:\.\d{1,3})+\.?|\d{1,2}\))\s+\S")
_LEAD_CHARS = 120


def _lead_cut(
    boxes: _CharBoxes,
    tp: Any,
    text: str,
    fonts: _FontCache,
    first: int,
    end: int,
    cut: int | None = None,
    continued: tuple[bool, bool] | None = None,
) -> int:
    """Return where the text starts after a numbered head in bold or italics that runs into it, else -1.

    A run-in sub-section head (``9.1. Multiple integral signs.``, its title in
    bold or italics at the text's size, its number in that face or not, its
    paragraph going on upright on the same line) is read character by
    character only when the line opens with a section number of two levels or
    more or a number and a parenthesis (IEEE's ``1) Title:``), the first word
    after the number is bold or italic, and the line ends
    upright in the text's weight two words or more after the head. The head
    is the run of that face (code in a typewriter face inside it included); it
    must hold a word and end in a full stop or a colon (in its face or
    upright), as run-in heads do. With ``cut`` (where a wide gap already splits
    the line), the head must end there. With ``continued`` (the face of a
    numbered head that filled the line above in it), the line goes on with
    that head's title: it opens in that face with no number
    (``2.2. Reading Data in zoo Applied`` over ``Econometrics. This ...``).
    A paragraph that opens with the line's last word broken by a hyphen
    (``Matrix. Se-``) counts as going on.
    """
    word = first if continued is not None else _numbered_title_at(tp, text, fonts, first, end)
    if word < 0:
        return -1
    _, bold, italic = fonts.info(tp, word)
    if not (bold or italic) or (continued is not None and (bold, italic) != continued):
        return -1
    last = first + len(text[first:end].rstrip()) - 1
    if fonts.info(tp, last)[1:] != (False, False):
        return -1  # the line ends in the text's upright face, not in a heading's second face
    k = word
    stop = min(end, first + _LEAD_CHARS)
    while k < stop:
        if not text[k].isspace():
            font, *face = fonts.info(tp, k)
            # (a command's name in a typewriter face inside the title: "9.12. mod and its relatives.")
            if tuple(face) != (bold, italic) and not CODE_FONT.search(font):
                break
        k += 1
    if k >= stop:
        return -1
    if text[k] in ".:":
        k += 1  # the head's full stop, set upright after an italic title ("signs.")
    if cut is not None:
        if text[k:cut].strip():
            return -1
        k = cut
    head = text[first:k].rstrip()
    fewest = 2 if continued is None else 1
    if not fewest <= len(head.split()) <= 13 or sum(map(str.isalpha, head)) < 2:
        return -1
    if head[-1:] not in ".:" and not _quad_after(boxes, text, word, k):
        return -1
    after = text[k:end].split()
    if len(after) < 2 and not (after and after[0].endswith(_LINE_HYPHENS)):
        return -1  # the paragraph it runs into goes on for a few words
    return k


def _quad_after(boxes: _CharBoxes, text: str, word: int, k: int) -> bool:
    """Tell whether a head's title (``text[word:k]``) stands a wide space before the text after it.

    A run-in head without a stop (``4.2.1. Fitness and selection``, then its
    paragraph upright) is set an em space or a quad before its text: a gap at
    least twice the widest between the title's own words.
    """

    def box(i: int) -> tuple[float, float]:
        found = boxes.box(i)
        return (found[0], found[2]) if found is not None else (0.0, 0.0)

    end = k
    while end < len(text) and text[end].isspace():
        end += 1
    last = k - 1
    while last > word and text[last].isspace():
        last -= 1
    if end >= len(text) or last <= word:
        return False
    inner = [
        box(i + 1)[0] - box(i - 1)[1]
        for i in range(word + 1, last)
        if text[i].isspace() and not text[i - 1].isspace() and not text[i + 1].isspace()
    ]
    if not inner:
        return False
    return box(end)[0] - box(last)[1] >= 2 * max(max(inner), 0.5)


def _head_line_face(tp: Any, text: str, fonts: _FontCache, first: int, end: int) -> tuple[bool, bool] | None:
    """Return the face of a line that is a numbered head in bold or italics from end to end, else None.

    Where such a line fills its column, its title wraps: the next line may go
    on with it and then run into its paragraph (a run-in head too long for
    one line).
    """
    word = _numbered_title_at(tp, text, fonts, first, end)
    if word < 0:
        return None
    _, bold, italic = fonts.info(tp, word)
    last = first + len(text[first:end].rstrip()) - 1
    if not (bold or italic) or fonts.info(tp, last)[1:] != (bold, italic):
        return None
    return bold, italic


def _numbered_title_at(tp: Any, text: str, fonts: _FontCache, first: int, end: int) -> int:
    """Return where the title starts after a line's opening section number (``9.1.``, ``1)``), else -1."""
    m = _LEAD_NUMBER.match(text, first)
    return -1 if m is None else _title_start(tp, text, fonts, m.end() - 1, end)


def _title_start(tp: Any, text: str, fonts: _FontCache, k: int, end: int) -> int:
    """Return the first character of a head's title after its number that is no code (``mod`` in ``9.12``)."""
    j = k
    while j < min(end, k + _LEAD_CHARS) and (text[j].isspace() or CODE_FONT.search(fonts.info(tp, j)[0])):
        j += 1
    return j if j < end else k


def font_family(font: str) -> str:
    """Return a font's family: its name before the style (``TeXGyrePagella-Bold``: ``texgyrepagella``)."""
    return re.split(r"[-,_]", font, maxsplit=1)[0].lower()


_LINE_HYPHENS = ("\x02", "-", "\u00ad", "\ufffe", "\u2010")


def _next_line(
    ra: tuple[float, float, float, float],
    rb: tuple[float, float, float, float],
    size: float,
    before: str = "",
) -> bool:
    """Tell whether run ``rb`` of a line starts the next line down: pdfium ran on without a break.

    ``ra`` and ``rb`` are consecutive runs' boxes (left, top, right, bottom,
    top-down). IEEE's "... can be defined. REFERENCES" comes as one line, the
    heading back at the column's left edge a line lower: a run of one line's
    height wholly under the one before, more than ``size`` lower and starting
    left of its end, is a line of its own. An accent set over its letter
    stands less than a line above it; a figure's label set upright is taller
    than a line. A word hyphenated over the break (``before``, the text up to
    ``rb``, ends in ``head-``) keeps its two lines one, as pdfium joins them.
    """
    if before.rstrip().endswith(_LINE_HYPHENS):
        return False
    return rb[1] >= ra[3] and rb[1] - ra[1] > size and rb[3] - rb[1] < 2 * size and rb[0] < ra[2]


def extract_page_lines(
    page: Any,
    page_index: int,
    *,
    gap_em: float = 1.6,
    undrawn: set[str] | None = None,
    drawn_underscores: bool = False,
) -> list[PdfLine]:
    """Return the text lines of one pypdfium2 page in pdfium's order.

    A line whose text runs are separated by a horizontal gap wider than
    ``gap_em`` times its font size is split into pieces (table cells, or two
    columns that the content stream interleaves); pieces of one visual row
    share ``row``. The name of a font that the page draws CJK text in without
    embedding it, where the machine has no glyphs for that text, is added to
    ``undrawn``. With ``drawn_underscores`` (a PDF made by TeX), underscores
    drawn as rules are read back (see :func:`_with_drawn_underscores`).
    """
    import pypdfium2.raw as raw

    textpage = page.get_textpage()
    tp = textpage.raw  # the bare handle: the helper object converts itself on every call
    try:
        count = raw.FPDFText_CountChars(tp)
        if count <= 0:
            return []
        frame = PageFrame.of(page)
        text = _page_text(raw, tp, count)
        paired = len(text) != count
        if paired:
            # a character beyond U+FFFF is two of pdfium's characters (a surrogate pair): read them
            # one by one so that the text's indices stay pdfium's, and join them in each line's text
            text = "".join(chr(raw.FPDFText_GetUnicode(tp, i) or 0xFFFD) for i in range(count))
        if drawn_underscores:
            text = _with_drawn_underscores(raw, page.raw, tp, text)
        fonts = _FontCache(raw)
        boxes = _CharBoxes(raw, tp, frame, text, fonts)
        if undrawn is not None:
            undrawn |= boxes.undrawn
        left, top, right, bottom = (ctypes.c_double() for _ in range(4))
        matrix = raw.FS_MATRIX()
        lines: list[PdfLine] = []
        pos = 0
        row = 0
        # the face and right edge of the line above where it is a numbered head from end to end
        wrapping: tuple[tuple[bool, bool], float] | None = None
        for m in [*_LINE_BREAK.finditer(text), None]:
            end = m.start() if m is not None else len(text)
            start, pos = pos, (m.end() if m is not None else len(text))
            segment = text[start:end]
            if not segment.strip():
                continue
            rects = boxes.read_line(text, start, end)
            if rects is None:
                rects = []
                for k in range(raw.FPDFText_CountRects(tp, start, end - start)):
                    if raw.FPDFText_GetRect(tp, k, left, top, right, bottom):
                        rects.append(frame.box(left.value, bottom.value, right.value, top.value))
            if not rects:
                continue
            first = start + (len(segment) - len(segment.lstrip()))
            scale = _matrix_scale(raw, tp, first, matrix)  # one per line: its pieces share it
            size = (raw.FPDFText_GetFontSize(tp, first) or 0.0) * scale
            # split the line where the gap between runs is wide, or where a run starts a line below
            cuts = [start]
            if len(rects) > 1 and size > 0:
                for ra, rb in itertools.pairwise(rects):
                    wide = rb[0] - ra[2] > gap_em * size and abs(rb[1] - ra[1]) < size
                    below = not wide and _next_line(ra, rb, size)
                    if wide or below:
                        idx = boxes.index_at(rb[0] + min(0.5, (rb[2] - rb[0]) / 2), (rb[1] + rb[3]) / 2)
                        if below and not _next_line(ra, rb, size, text[start:idx]):
                            continue
                        if cuts[-1] < idx < end:
                            cuts.append(idx)
            # a head set in its own face a gap before the text that it starts (a margin or run-in
            # heading on the paragraph's first baseline) is a piece of its own
            runin = -1
            lead = -1
            # (the line above, a numbered head filling the column in its face, may end on this line)
            edge = max(r[2] for r in rects)
            continued = wrapping[0] if wrapping is not None and abs(edge - wrapping[1]) < size else None
            if len(cuts) == 1 and len(rects) > 1 and size > 0:
                runin = _run_in_cut(raw, tp, text, fonts, rects, first, end, size, boxes)
                if runin > 0:
                    cuts.append(runin)
                else:
                    lead = _lead_cut(boxes, tp, text, fonts, first, end)
                    if lead < 0 and continued is not None:
                        lead = _lead_cut(boxes, tp, text, fonts, first, end, continued=continued)
                    if lead > 0:
                        cuts.append(lead)
            elif len(cuts) > 1 and (
                _lead_cut(boxes, tp, text, fonts, first, end, cuts[1]) == cuts[1]
                or (
                    continued is not None
                    and _lead_cut(boxes, tp, text, fonts, first, end, cuts[1], continued) == cuts[1]
                )
            ):
                lead = cuts[1]  # the head stands a wide gap before its text ("9.4. Accents.   Double ...")
            cuts.append(end)
            face = _head_line_face(tp, text, fonts, first, end) if len(cuts) == 2 else None
            wrapping = (face, edge) if face is not None else None
            pieces: list[tuple[int, int]] = list(itertools.pairwise(cuts))
            for a, b in pieces:
                piece = text[a:b]
                stripped = piece.strip()
                if not stripped:
                    continue
                i0 = a + (len(piece) - len(piece.lstrip()))
                i1 = a + len(piece.rstrip()) - 1
                if len(pieces) == 1:
                    box = rects
                else:
                    ends = (boxes.box(i0), boxes.box(i1))
                    box = [b for b in ends if b is not None] or [(0.0, 0.0, 0.0, 0.0)]
                if _STRAY_ACCENT.search(stripped) is not None:
                    stripped = _placed_accents(boxes, piece, a).strip() or stripped
                if _looks_letter_spaced(stripped):
                    stripped = _join_spaced_letters(boxes, piece, a) or stripped
                elif stripped[:1].isdigit() or stripped[:1] in ".-\u2212\u2013":
                    stripped = _rtl_number_first(boxes, stripped, i0)
                x0 = min(r[0] for r in box)
                x1 = max(r[2] for r in box)
                y0 = min(r[1] for r in box)
                y1 = max(r[3] for r in box)
                # size and weight by the majority of three samples (first, middle, last character):
                # a large marginal glyph ("NOTE") or a last word in code type does not restyle a line
                # (the text after a run-in head has its own scale: the head's may be larger)
                own = _matrix_scale(raw, tp, i0, matrix) if a == runin else scale
                psize = size if a == start else (raw.FPDFText_GetFontSize(tp, i0) * own or size)
                head = fonts.info(tp, i0)
                font, bold, italic = head
                if a == lead:
                    pass  # the text after a run-in head: its own face, read as usual
                elif a == start and lead > 0:
                    # a run-in head takes its title's face (its number and full stop may be upright)
                    word = _numbered_title_at(tp, text, fonts, i0, b)
                    if word >= 0:
                        font, bold, italic = fonts.info(tp, word)
                    i1 = i0  # (no vote of the middle and last characters)
                if i1 > i0:
                    tail = fonts.info(tp, i1)
                    size_last = raw.FPDFText_GetFontSize(tp, i1) * own or psize
                    capitals = is_all_caps(stripped)
                    # when the first and last characters agree, the middle one cannot outvote them
                    # (capitals excepted: their size is the largest of the three)
                    if tail != head or size_last != psize or capitals:
                        im = _middle_char(piece, a)
                        font_mid, bold_mid, italic_mid = fonts.info(tp, im)
                        font_last, bold_last, italic_last = tail
                        if font_mid == font_last:
                            font = font_mid  # a line number or a bullet in another face leads the line
                        psize0 = psize
                        size_mid = raw.FPDFText_GetFontSize(tp, im) * own or psize
                        sizes = sorted((psize, size_mid, size_last))
                        # faked small capitals ("S" then "TOCK" a size smaller) keep the capitals' size
                        psize = sizes[2] if capitals else sizes[1]
                        bold = bold + bold_mid + bold_last >= 2
                        italic = italic + italic_mid + italic_last >= 2
                        # code set smaller inside text ("Class: EventEmitter", its name in a typewriter
                        # face at 0.8 of the heading's size) takes the size and face of the text
                        samples = [(head[0], psize0), (font_mid, size_mid), (font_last, size_last)]
                        text_samples = [(f, z) for f, z in samples if not CODE_FONT.search(f)]
                        code_sizes = [z for f, z in samples if CODE_FONT.search(f)]
                        if text_samples and code_sizes and min(z for _, z in text_samples) > max(code_sizes):
                            font, psize = max(text_samples, key=lambda s: s[1])
                title_x = None
                number = _SECTION_LABEL.match(text, i0, i1)
                if number is not None:
                    found = boxes.box(number.end())
                    title_x = found[0] if found is not None else None
                lines.append(
                    PdfLine(
                        text=_line_text(stripped, paired),
                        x0=x0,
                        x1=x1,
                        top=y0,
                        bottom=y1,
                        size=round(float(psize), 2),
                        bold=bold,
                        italic=italic,
                        font=font,
                        page=page_index,
                        row=row,
                        run_in=runin > 0 and a == start,
                        lead=lead > 0 and a == start,
                        title_x=title_x,
                    )
                )
            row += 1
        return lines
    finally:
        textpage.close()
