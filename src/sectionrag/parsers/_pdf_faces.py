"""Faces of a document that head text, and faces that do not, judged over all its pages.

A heading face is found from how its lines stand in the whole document
(light sub-headings of web pages, small bold headings of word processors);
so is a definition list's term face, whose lines head indented text and are
no headings. An index's leadered pages are told from a contents' by their
page numbers, which do not rise.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

from sectionrag.parsers._pdf_layout import in_right_column, right_column_start
from sectionrag.parsers._pdfium import CODE_FONT, PdfLine

__all__ = [
    "SMALL_CAPS_FONT",
    "Style",
    "caseless_heading_styles",
    "caseless_line",
    "hangs",
    "light_heading_styles",
    "margin_heading_styles",
    "rising",
    "text_left",
    "small_heading_styles",
    "style_of",
    "term_styles",
]


def light_heading_styles(pages: list[list[PdfLine]], body: float) -> set[tuple[float, str]]:
    """Styles of short, light lines a little larger than the body that recur: a heading style.

    Web pages printed to PDF set their sub-headings in regular weight, a size
    or two above the text; one such line may be a pull quote, three or more in
    the same face and size, each standing alone, are headings. So are a
    Chinese thesis's titles in a black face a size above its text, starting
    with a letter of a script without case.
    """
    counts: Counter[tuple[float, str]] = Counter()
    for lines in pages:
        for ln in lines:
            ratio = ln.size / body if body else 1.0
            words = ln.text.split()
            if (
                1.08 <= ratio < 1.3
                and not ln.bold
                and 0 < len(words) <= 8
                and ln.text[-1:] not in ".,;:"
                and (ln.text[:1].isupper() or _caseless(ln.text[:1]))
            ):
                counts[(round(ln.size * 2) / 2, ln.font)] += 1
    return {style for style, n in counts.items() if n >= 3}


Style = tuple[float, str, bool, bool]


def style_of(ln: PdfLine) -> Style:
    return (round(ln.size * 2) / 2, ln.font, ln.bold, ln.italic)


def text_left(lines: list[PdfLine], *, words: int = 0) -> float | None:
    """Return the left edge of a page's text block: the leftmost start shared by three lines or more.

    With ``words``, only lines of that many words or more count (lines of prose,
    not side heads stacked at one edge of the margin).
    """
    starts = Counter(round(ln.x0 / 2) for ln in lines if len(ln.text.split()) >= words)
    shared = [2.0 * k - 2.0 for k, n in starts.items() if n >= 3]
    return min(shared) if shared else None


def margin_heading_styles(pages: list[list[PdfLine]], body: float) -> set[Style]:
    """Faces of short lines in the left margin, each beside the start of a paragraph: margin headings.

    Some designs set their lowest headings in the margin, on the baseline of
    the paragraph they head (``Widows`` left of ``A "widow" occurs ...``). A
    face counts when at least three of its margin lines (short, ending left of
    the text block, not like a sentence) sit beside text starting in the block
    at their height, three quarters of them say something different (a label
    repeated beside boxes, ``NOTE``, is no heading), and the face is larger
    than the text (a bold label at the text size in the margin is a note).
    """
    beside: Counter[Style] = Counter()
    texts: dict[Style, set[str]] = {}
    total: Counter[Style] = Counter()
    for lines in pages:
        left = text_left(lines, words=5)
        if left is None:
            continue
        for ln in lines:
            if ln.role != "body" or ln.x1 >= left - 0.5 * body or CODE_FONT.search(ln.font):
                continue
            if (
                not 0 < len(ln.text.split()) <= 5
                or ln.text[-1:] in ".,;:"
                or sum(map(str.isalpha, ln.text)) < 2
            ):
                continue
            key = style_of(ln)
            total[key] += 1
            if any(
                o is not ln and abs(o.x0 - left) < 3 and -0.5 * body <= o.top - ln.top < 1.5 * ln.size
                for o in lines
            ):
                beside[key] += 1
                texts.setdefault(key, set()).add(ln.text.lower())
    return {
        key
        for key, n in beside.items()
        if n >= 3 and n >= 0.75 * total[key] and len(texts[key]) >= 0.75 * n and key[0] >= 1.12 * body
    }


def small_heading_styles(pages: list[list[PdfLine]], body: float) -> set[Style]:
    """Bold faces a little smaller than the body that only ever head text: a heading style.

    Some word processors' templates set their lowest headings in a bold sans
    face smaller than the serif text (``Page Size`` in 10.5 pt Arial Bold
    over 12 pt Times). A face counts when at least three of its lines, and
    three quarters of them, stand alone: short, alone in their row, not ending
    like a sentence, and followed by body-sized text (or by another line of the
    same face over it).
    """
    alone: Counter[Style] = Counter()
    total: Counter[Style] = Counter()
    for lines in pages:
        # (alone in its row of its column: a table in the other column does not count)
        right = right_column_start(lines)
        pieces = Counter((ln.row, in_right_column(ln, right)) for ln in lines)
        for i, ln in enumerate(lines):
            if not ln.bold or ln.role != "body" or not 0.75 <= ln.size / body < 0.92:  # (as _is_heading_line)
                continue
            key = style_of(ln)
            total[key] += 1
            words = ln.text.split()
            k = i + 1
            while k < len(lines) and style_of(lines[k]) == key and k - i < 8:
                k += 1  # a stack of labels over one description
            heads_text = k < len(lines) and lines[k].size / body >= 0.915 and not lines[k].bold
            if (
                heads_text
                and pieces[ln.row, in_right_column(ln, right)] == 1
                and 0 < len(words) <= 10
                and ln.text[-1:] not in ".,;:"
                and (ln.text[:1].isupper() or ln.text[:1].isdigit() or _caseless(ln.text[:1]))
            ):
                alone[key] += 1
    return {key for key, n in alone.items() if n >= 3 and n >= 0.75 * total[key]}


SMALL_CAPS_FONT = re.compile(r"[-_+,]sc(?:\d|[-_]|$)|smallcap|smcp|cmcsc|romancaps", re.I)


def caseless_heading_styles(pages: list[list[PdfLine]], body: float) -> set[Style]:
    """Faces that set their headings in small capitals or all in lower case: a heading style.

    Some designs (ConTeXt's, a small-capitals face at the text size, or a
    display face in lower case, ``preliminaries``) print headings whose letters
    say nothing of a title's case, so that the first letter reads as prose. A
    face counts when at least three of its lines set off by space above, and
    two thirds of them, stand alone: short, alone in their row, not ending
    like a sentence, over text (or code) of about the body's size (and, at that
    size, with space below).
    """
    alone: Counter[Style] = Counter()
    total: Counter[Style] = Counter()
    faces = Counter(style_of(ln) for lines in pages for ln in lines)
    text_face = faces.most_common(1)[0][0] if faces else None
    for lines in pages:
        pieces = Counter(ln.row for ln in lines)
        for i, ln in enumerate(lines):
            if ln.role != "body" or ln.size < 0.92 * body or (ln.bold and ln.size < 1.12 * body):
                continue
            if _LAST_NUMBER.search(ln.text) and len(ln.text.split()) > 1:
                continue  # an entry of a contents ("usage 5"), read there
            if style_of(ln) == text_face or not caseless_line(ln):
                continue
            if ln.size < 1.12 * body and not SMALL_CAPS_FONT.search(ln.font):
                continue  # at the text's size, lower case is code or a term; small capitals are a design
            prev = lines[i - 1] if i > 0 else None
            above = ln.top - prev.bottom if prev is not None else body
            if above < 0.8 * body:
                continue  # (a paragraph set in the face counts once, by its first line)
            key = style_of(ln)
            total[key] += 1
            nxt = lines[i + 1] if i + 1 < len(lines) else None
            if nxt is None or style_of(nxt) == key or not 0.75 * body <= nxt.size < body + 0.6:
                continue
            set_off = ln.size >= 1.12 * body or nxt.top - ln.bottom >= 0.6 * body
            if (
                set_off
                and pieces[ln.row] == 1
                and 0 < len(ln.text.split()) <= 10
                and ln.text[-1:] not in ".,;:"
                and not CODE_FONT.search(ln.font)
            ):
                alone[key] += 1
    return {key for key, n in alone.items() if n >= 3 and 3 * n >= 2 * total[key]}


def caseless_line(ln: PdfLine) -> bool:
    """Tell a line that starts with a letter and shows no capital, or is set in small capitals."""
    if not ln.text[:1].isalnum():
        return False  # an option ("--force") or a symbol
    if SMALL_CAPS_FONT.search(ln.font):
        return True
    text = ln.text
    return not any(c.isupper() and c.isalpha() for c in text) and any(c.isalpha() for c in text)


def code_heading_styles(pages: list[list[PdfLine]], body: float) -> set[Style]:
    """Bold typewriter faces that only ever head text: an API reference's member headings.

    Pandoc through Typst (and other producers that set inline code at 0.8 of
    the text around it) prints a heading made only of code, such as
    ``emitter.on(eventName, listener)``, in a bold typewriter face smaller than
    the body, while listings use the regular weight. A bold typewriter face
    counts when at least three of its lines, and three quarters of them, stand
    alone: alone in their row, short, and followed by upright text of the body's size
    that starts where they start (not indented under them, as a definition's text is).
    """
    alone: Counter[Style] = Counter()
    total: Counter[Style] = Counter()
    for lines in pages:
        pieces = Counter(ln.row for ln in lines)
        # (text indented under the line makes it a definition list's term: "--enable-cups-ppds")
        for i, ln in enumerate(lines):
            if not ln.bold or ln.role != "body" or not CODE_FONT.search(ln.font):
                continue
            if not 0.75 <= ln.size / body < 1.3:
                continue
            key = style_of(ln)
            total[key] += 1
            nxt = lines[i + 1] if i + 1 < len(lines) else None
            heads_text = (
                nxt is not None
                and nxt.size / body >= 0.915
                and not nxt.bold
                and not CODE_FONT.search(nxt.font)
                and nxt.x0 < ln.x0 + 0.5 * body
            )
            if heads_text and pieces[ln.row] == 1 and 0 < len(ln.text.split()) <= 8:
                alone[key] += 1
    return {key for key, n in alone.items() if n >= 3 and n >= 0.75 * total[key]}


_LAST_NUMBER = re.compile(r"(\d{1,5})\s*$")


def rising(lines: list[PdfLine]) -> bool:
    """Tell whether the page numbers ending these lines mostly rise, as a contents' do (an index's do not).

    Read in the lines' order, or column by column (entries whose numbers end
    flush at one right edge, top to bottom): a contents set in three columns
    may come in row by row.
    """
    numbered = [(ln, int(m.group(1))) for ln in lines if (m := _LAST_NUMBER.search(ln.text))]
    if len(numbered) < 5:
        return True
    by_column = sorted(numbered, key=lambda pair: (round(pair[0].x1 / 24), pair[0].top))
    return any(_mostly_rise([n for _, n in order]) for order in (numbered, by_column))


def _mostly_rise(numbers: list[int]) -> bool:
    rises = sum(1 for a, b in itertools.pairwise(numbers) if b >= a)
    return rises >= 0.7 * (len(numbers) - 1)


def hangs(lines: list[PdfLine], i: int, body: float) -> bool:
    """Tell whether ``lines[i]`` (with the lines of its face stacked under it) heads an indented block.

    A definition list sets each term flush and its description indented under
    it, every line of it (``Constant: SHA256_DIGEST_SIZE`` over ``The size of
    a SHA256 digest``); a heading's text starts where the heading does, or
    indents its first line only, and a title centred on the page has its
    note centred under it.
    """
    ln = lines[i]
    k = i + 1
    face = style_of(ln)
    while k < len(lines) and style_of(lines[k]) == face and abs(lines[k].x0 - ln.x0) < 2 and k - i < 8:
        k += 1  # stacked terms over one description
    if k >= len(lines):
        return False
    text = lines[k]
    if (
        text.bold
        or abs(text.size - body) >= 0.6
        or text.x0 < ln.x0 + 1.8 * body
        or not 0 <= text.top - lines[k - 1].bottom < 2 * body
    ):
        return False
    if text.x1 <= ln.x1 + 1 and abs(text.x0 + text.x1 - ln.x0 - ln.x1) < 0.5 * body:
        # a title centred on the page over a shorter line centred under it ("(In millions)")
        page = [o for o in lines if o.role != "furniture"]
        left = min(o.x0 for o in page)
        if ln.x0 > left + 2 * body and abs(ln.x0 + ln.x1 - left - max(o.x1 for o in page)) < body:
            return False
    after = lines[k + 1] if k + 1 < len(lines) else None
    if after is None or after.bold or after.italic or abs(after.size - body) >= 0.6:
        return True  # a one-line description, then the next term or the end
    if after.top - text.bottom >= 0.6 * body:
        return True  # the description ends there (a paragraph's space follows)
    return abs(after.x0 - text.x0) < 2  # its next line keeps the indent: not a first-line indent


def term_styles(pages: list[list[PdfLine]], body: float) -> set[Style]:
    """Faces of definition terms: body-sized bold or italic lines over indented text, three times or more."""
    counts: Counter[Style] = Counter()
    for lines in pages:
        for i, ln in enumerate(lines):
            run_in = (ln.bold or ln.italic) and abs(ln.size - body) < 0.6 and ln.role == "body"
            if run_in and hangs(lines, i, body):
                counts[style_of(ln)] += 1
    return {style for style, n in counts.items() if n >= 3}


def _caseless(ch: str) -> bool:
    """Tell a letter of a script without case (Chinese, Arabic, Devanagari): it starts a title too."""
    return ch.isalpha() and not ch.islower() and not ch.isupper()
