"""A tiny PDF writer for tests: text lines in standard fonts, optional outline and images.

Writes uncompressed PDF 1.4 with the standard 14 fonts (nothing embedded), so
files of any page count can be made at test time without extra dependencies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Line:
    text: str
    x: float = 72.0
    y: float = 720.0
    size: float = 10.0
    bold: bool = False
    italic: bool = False
    family: str = "Helvetica"  # a standard 14 family: Helvetica, Times or Courier
    face: str = ""  # another font name (not embedded: the viewer substitutes), e.g. "Palatino-SC"
    cjk: bool = False  # ``face`` is a Japanese CID font (Adobe-Japan1, not embedded) and the text Unicode
    expert: bool = False  # ``face`` names digits and letters as an expert font ("oneoldstyle", "Asmall")
    stem: int = 0  # ``face``'s descriptor gives this stem width (/StemV): pdfium estimates its weight from it

    @property
    def base_font(self) -> str:
        """The font's name: ``face`` when given, else the standard font for family, weight and slant."""
        return self.face or _FACES[self.family][self.bold, self.italic]


@dataclass
class Page:
    lines: list[Line] = field(default_factory=list)
    image: bool = False  # a gray image filling the page (a "scan")
    raw: bytes = b""  # extra content stream bytes
    raw_first: bool = False  # write ``raw`` before the lines (it comes first in reading order)
    # shown turned a quarter clockwise (``/Rotate 90``): a landscape page, 792 wide and 612 high as
    # shown, whose lines' x and y are given as shown and drawn upwards in the portrait user space
    landscape: bool = False


@dataclass
class Bookmark:
    title: str
    page: int  # 0-based
    y: float
    children: list[Bookmark] = field(default_factory=list)


_FACES = {
    family: {
        (False, False): regular,
        (True, False): f"{family}-Bold",
        (False, True): f"{family}-{slant}",
        (True, True): f"{family}-Bold{slant}",
    }
    for family, regular, slant in (
        ("Helvetica", "Helvetica", "Oblique"),
        ("Times", "Times-Roman", "Italic"),
        ("Courier", "Courier", "Oblique"),
    )
}


def _font_object(name: str) -> bytes:
    return b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % name.encode()


def _stemmed_font_object(name: str, stem: int) -> bytes:
    """A font whose descriptor's stem width is ``stem`` (pdfium reads a weight of 4 x stem + 140 or so)."""
    return (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding "
        b"/FirstChar 32 /LastChar 126 /Widths [%s] "
        b"/FontDescriptor << /Type /FontDescriptor /FontName /%s /Flags 34 /FontBBox [-170 -250 1000 900] "
        b"/ItalicAngle 0 /Ascent 750 /Descent -250 /CapHeight 700 /StemV %d >> >>"
        % (name.encode(), b" ".join([b"500"] * 95), name.encode(), stem)
    )


_DIGIT_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _expert_font_object(name: str) -> bytes:
    """A font with no Unicode map whose digits are old-style figures and whose letters small capitals."""
    digits = b" ".join(b"/%soldstyle" % d.encode() for d in _DIGIT_NAMES)
    letters = b" ".join(b"/%csmall" % c for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding << /Type /Encoding "
        b"/BaseEncoding /WinAnsiEncoding /Differences [48 %s 97 %s] >> >>" % (name.encode(), digits, letters)
    )


# a Japanese CID font's metrics (per 1000 units of the em): ideographs a full em, ASCII half of one
CJK_ASCENT, CJK_DESCENT, CJK_ASCII_WIDTH = 723, -241, 500


def _cjk_font_object(name: str) -> bytes:
    """A composite font of the Adobe-Japan1 collection, named but not embedded, read as UCS-2."""
    font = name.encode()
    return (
        b"<< /Type /Font /Subtype /Type0 /BaseFont /%s-UniJIS-UCS2-H /Encoding /UniJIS-UCS2-H "
        b"/DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 /BaseFont /%s "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> "
        b"/FontDescriptor << /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [-170 -331 1024 903] "
        b"/ItalicAngle 0 /Ascent %d /Descent %d /CapHeight 709 /StemV 80 >> /DW 1000 /W [1 95 %d] >>] >>"
        % (font, font, font, CJK_ASCENT, CJK_DESCENT, CJK_ASCII_WIDTH)
    )


def _esc(text: str) -> bytes:
    data = text.encode("cp1252", errors="replace")
    return data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _text_string(text: str) -> bytes:
    """A PDF text string: ``(...)`` where cp1252 holds ``text``, else UTF-16BE with its mark, in hex."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return b"<FEFF%s>" % text.encode("utf-16-be").hex().upper().encode()
    return b"(%s)" % _esc(text)


def write_pdf(
    path: Path, pages: list[Page], outline: list[Bookmark] | None = None, info: dict[str, str] | None = None
) -> Path:
    """Write ``pages`` to ``path``, with ``outline``'s bookmarks and an ``info`` dictionary (Title ...)."""
    objects: list[bytes] = []

    def add(obj: bytes) -> int:
        objects.append(obj)
        return len(objects)

    catalog = add(b"")  # placeholder
    pages_id = add(b"")
    font = add(_font_object("Helvetica"))
    font_b = add(_font_object("Helvetica-Bold"))
    image = add(
        b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 "
        b"/Length 64 >>\nstream\n" + bytes(range(100, 164)) + b"\nendstream"
    )
    # fonts other than Helvetica and Helvetica-Bold get /F3, /F4 ... (only when some line uses them,
    # so files without them are byte for byte what they always were)
    names = {"Helvetica": b"/F1", "Helvetica-Bold": b"/F2"}
    extra = b""
    for page in pages:
        for ln in page.lines:
            if ln.base_font not in names:
                names[ln.base_font] = b"/F%d" % (len(names) + 1)
                if ln.stem:
                    obj = _stemmed_font_object(ln.base_font, ln.stem)
                else:
                    maker = _cjk_font_object if ln.cjk else _expert_font_object if ln.expert else _font_object
                    obj = maker(ln.base_font)
                extra += b" %s %d 0 R" % (names[ln.base_font], add(obj))
    page_ids: list[int] = []
    for page in pages:
        ops: list[bytes] = []
        if page.image:
            ops.append(b"q 612 0 0 792 0 0 cm /Im1 Do Q")
        if page.raw and page.raw_first:
            ops.append(page.raw)
        for ln in page.lines:
            f = names[ln.base_font]
            hexed = b"<%s>" % ln.text.encode("utf-16-be").hex().encode()
            shown = hexed if ln.cjk else b"(%s)" % _esc(ln.text)
            if page.landscape:  # (shown at (x, y) once turned: drawn at (612 - y, x), upwards)
                ops.append(
                    b"BT %s %.2f Tf 0 1 -1 0 %.2f %.2f Tm %s Tj ET" % (f, ln.size, 612 - ln.y, ln.x, shown)
                )
            else:
                ops.append(b"BT %s %.2f Tf %.2f %.2f Td %s Tj ET" % (f, ln.size, ln.x, ln.y, shown))
        if page.raw and not page.raw_first:
            ops.append(page.raw)
        stream = b"\n".join(ops)
        content = add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        page_ids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792]%s /Contents %d 0 R "
                b"/Resources << /Font << /F1 %d 0 R /F2 %d 0 R%s >> /XObject << /Im1 %d 0 R >> >> >>"
                % (pages_id, b" /Rotate 90" if page.landscape else b"", content, font, font_b, extra, image)
            )
        )
    kids = b" ".join(b"%d 0 R" % p for p in page_ids)
    objects[pages_id - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(page_ids))
    outline_ref = b""
    if outline:
        root = add(b"")

        def build(items: list[Bookmark], parent: int) -> tuple[int, int, int]:
            ids = [add(b"") for _ in items]
            total = 0
            for i, (bm, oid) in enumerate(zip(items, ids, strict=True)):
                parts = [b"/Title %s /Parent %d 0 R" % (_text_string(bm.title), parent)]
                parts.append(b"/Dest [%d 0 R /XYZ 0 %.2f 0]" % (page_ids[bm.page], bm.y))
                if i > 0:
                    parts.append(b"/Prev %d 0 R" % ids[i - 1])
                if i + 1 < len(ids):
                    parts.append(b"/Next %d 0 R" % ids[i + 1])
                count = 0
                if bm.children:
                    first, last, count = build(bm.children, oid)
                    parts.append(b"/First %d 0 R /Last %d 0 R /Count %d" % (first, last, count))
                objects[oid - 1] = b"<< " + b" ".join(parts) + b" >>"
                total += 1 + count
            return ids[0], ids[-1], total

        first, last, count = build(outline, root)
        objects[root - 1] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (
            first,
            last,
            count,
        )
        outline_ref = b" /Outlines %d 0 R /PageMode /UseOutlines" % root
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R%s >>" % (pages_id, outline_ref)
    info_ref = b""
    if info:
        entries = b" ".join(b"/%s (%s)" % (key.encode(), _esc(value)) for key, value in info.items())
        info_ref = b" /Info %d 0 R" % add(b"<< %s >>" % entries)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, obj)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        info_ref,
        xref,
    )
    path.write_bytes(bytes(out))
    return path


WORDS = [
    "the",
    "company",
    "reported",
    "revenue",
    "growth",
    "across",
    "its",
    "cloud",
    "segment",
    "while",
    "operating",
    "costs",
    "rose",
    "modestly",
    "and",
    "management",
    "expects",
    "continued",
    "momentum",
    "in",
    "subscription",
    "services",
    "during",
    "the",
    "next",
    "fiscal",
    "year",
]


def body_lines(
    n: int, seed: int, y: float, x: float = 72.0, width_words: int = 12
) -> tuple[list[Line], float]:
    lines = []
    for i in range(n):
        words = [WORDS[(seed * 7 + i * 5 + k) % len(WORDS)] for k in range(width_words)]
        text = " ".join(words)
        if i == n - 1:
            text += "."
        lines.append(Line(text, x=x, y=y))
        y -= 12
    return lines, y


def browser_paragraph(lines: list[Line], y: float, seed: int, n: int = 3, x: float = 34.0) -> float:
    """Append ``n`` lines of text as a browser prints it (16 px, 12 pt, at a leading of 13.5 pt).

    Returns the baseline where the next block starts, a paragraph's gap below.
    """
    more, _ = body_lines(n, seed, y, x=x, width_words=11)
    for k, ln in enumerate(more):
        ln.size, ln.y = 12, y - 13.5 * k
    lines.extend(more)
    return y - 13.5 * n - 16


def report(
    pages: int, *, with_outline: bool = True, header: str = "ACME Corp Annual Report"
) -> tuple[list[Page], list[Bookmark]]:
    """A report-like document: PART / Item / numbered sub-sections, running header and page numbers."""
    out: list[Page] = []
    outline: list[Bookmark] = []
    section = 0
    part = 0
    for p in range(pages):
        page = Page()
        page.lines.append(Line(header, x=72, y=760, size=8))
        page.lines.append(Line(str(p + 1), x=300, y=30, size=8))
        y = 720.0
        if p % 10 == 0:
            part = p // 10 + 1
            section = 0
            title = f"PART {part}"
            page.lines.append(Line(title, y=y, size=16, bold=True))
            outline.append(Bookmark(title, p, y + 16))
            y -= 30
        for _ in range(2):
            section += 1
            title = f"{section}. Section {section} of Part {part}"
            page.lines.append(Line(title, y=y, size=13, bold=True))
            bm = Bookmark(title, p, y + 13)
            outline[-1].children.append(bm)
            y -= 22
            lines, y = body_lines(6, section, y)
            page.lines += lines
            y -= 8
            sub = f"{section}.1 Details of Section {section} in Part {part}"
            page.lines.append(Line(sub, y=y, size=11, bold=True))
            bm.children.append(Bookmark(sub, p, y + 11))
            y -= 18
            lines, y = body_lines(8, section + 3, y)
            page.lines += lines
            y -= 14
        out.append(page)
    return out, outline if with_outline else []
