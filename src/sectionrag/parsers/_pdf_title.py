"""The title block of a PDF's first pages: cover pages, title, authors, kept out of the headings."""

from __future__ import annotations

import re

from sectionrag.parsers._pdf_headings import ORDER, Candidate
from sectionrag.parsers._pdfium import PdfLine
from sectionrag.parsers.headings import normalize_for_match, word_count

__all__ = ["FRONT_KEEP", "has_prose", "reads_as_title", "split_title"]

FRONT_KEEP = frozenset(
    {
        "abstract",
        "contents",
        "table of contents",
        "introduction",
        "summary",
        "executive summary",
        "preface",
        "foreword",
        "overview",
    }
)


# what a PDF's Title entry holds when it names no title: the authoring file ("Silo.book.fm",
# "Microsoft Word - report.docx"), an identifier or link ("doi:10.1016/...", a citation with its
# URL), a placeholder ("Untitled", "Slide 1") or a date alone ("29th October 2006")
_FILE_NAME = re.compile(
    r"\.(?:fm|book|docx?|dotx?|rtf|odt|pages|indd|qxd|qxp|p65|pm[67]|tex|dvi|e?ps|pdf|pptx?|xlsx?|html?|txt|md)$",
    re.IGNORECASE,
)
_NO_TITLE = re.compile(
    r"^(?:microsoft (?:word|powerpoint|excel) - |doi:|https?://|www\.)|\bdoi\.org/"
    r"|^(?:untitled|title|slide \d+|document\d*|presentation\d*)$",
    re.IGNORECASE,
)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_DATE = re.compile(
    rf"^(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})|(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?,?)\s+\d{{4}}$"
    r"|^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$",
    re.IGNORECASE,
)


def reads_as_title(value: str) -> bool:
    """Tell whether a PDF's ``Title`` entry names the document.

    Word processors and layout programs often fill it with the authoring
    file's name, publishers with a DOI or a citation; such an entry is no
    title, and the title printed on the first page is used instead.
    """
    text = " ".join(value.split())
    if sum(map(str.isalpha, text)) < 2:
        return False
    return not (_FILE_NAME.search(text) or _NO_TITLE.search(text) or _DATE.match(text))


def split_title(candidates: list[Candidate], pages: list[list[PdfLine]], body: float) -> str | None:
    """Take the title block of page 1 (title, authors) out of the headings; return the title.

    On a cover or title page (no paragraph of text) every heading is the title
    block. Otherwise the title block is the run of unnumbered page-1 headings
    before the first body paragraph, the first numbered heading, the first
    usual front heading (``Abstract``, ``Contents`` ...) and the first heading
    whose style recurs later (unless short lines such as affiliations follow
    it, or it is the document's first and largest line and no paragraph
    follows it). A lone title flush with the text over unnumbered headings
    stays a heading: it heads the document, as a web page's title does.
    """
    first_index = next((i for i, lines in enumerate(pages) if lines), None)
    if first_index is None or not candidates:
        return None
    covers = _cover_pages(pages, body, first_index)
    if covers:
        # a cover or title page: every line of it set as a heading (title, subtitle, authors,
        # edition) is the title block, whatever its face
        cover = [
            c
            for c in candidates
            if c.page in covers and c.toc_level is None and normalize_for_match(c.title) not in FRONT_KEEP
        ]
        if cover:
            for c in cover:
                candidates.remove(c)
                for ln in c.lines:
                    ln.role = "title"
            return max(cover, key=lambda c: c.size).title
    first_page = pages[first_index]
    first_body = next(
        (
            i
            for i, ln in enumerate(first_page)
            if ln.role == "body" and abs(ln.size - body) < 0.6 and len(ln.text.split()) >= 8
        ),
        len(first_page),
    )

    def style(c: Candidate) -> tuple[float, bool]:
        return (round(c.size * 2) / 2, c.bold)

    largest = max(c.size for c in candidates)
    # the title: the first page-1 line set in the document's largest heading face before the text;
    # smaller lines above it (a journal's banner, "PAPER", "Research Article") belong to its block
    title_k = next(
        (
            k
            for k, c in enumerate(candidates)
            if c.page == first_index and c.index < first_body and not c.numbered and c.size >= largest
        ),
        -1,
    )
    # where the text block runs: a centred line of the title block is centred on it
    long_lines = [ln for ln in first_page if len(ln.text.split()) >= 8]
    block_left = min((ln.x0 for ln in long_lines), default=None)
    block_right = max((ln.x1 for ln in long_lines), default=None)

    def centred_line(ln: PdfLine) -> bool:
        if block_left is None or block_right is None:
            return False
        return ln.x0 - block_left > 12 and abs((ln.x0 - block_left) - (block_right - ln.x1)) < 6

    def face_of(ln: PdfLine) -> tuple[float, bool, bool]:
        return (round(ln.size * 2) / 2, ln.bold, ln.italic)

    front: list[Candidate] = []
    for k, c in enumerate(candidates):
        if c.page != first_index or c.index >= first_body or c.numbered:
            break
        if normalize_for_match(c.title) in FRONT_KEEP:
            break
        if k < title_k:
            front.append(c)
            continue
        later = (o for o in candidates[k + 1 :] if o.page > first_index or o.index >= first_body)
        after = c.index + len(c.lines)
        # a line set like the headings below, but over short lines that are no heading (an
        # author's name over an affiliation), is still part of the title block
        over_short = (
            after < first_body
            and not any(o.page == first_index and o.index == after for o in candidates)
            and len(first_page[after].text.split()) < 8
        )
        # names and affiliations centred under the title in two alternating faces (an author in
        # 12 pt over an affiliation in italics, then the next author): a block, not headings,
        # even where one of its faces recurs later
        if not over_short and all(centred_line(ln) for ln in c.lines):
            face = face_of(c.lines[-1])
            end = min(first_body, len(first_page))
            beside = [first_page[i] for i in (c.index - 1, after) if 0 <= i < end]
            over_short = any(
                len(ln.text.split()) < 8 and centred_line(ln) and face_of(ln) != face for ln in beside
            )
        # the document's first and largest heading, over anything but a paragraph (authors, a
        # date), is its title even when a later heading (a sample in a figure) shares its face
        leads_prose = after < len(first_page) and len(first_page[after].text.split()) >= 8
        title_face = k == 0 and c.size >= largest and not leads_prose
        if any(style(o) == style(c) for o in later) and not over_short and not title_face:
            break
        front.append(c)
    block = _title_block_faces(candidates, first_page, first_index, body, set(map(id, front)))
    if not front and not block:
        return None
    if not front:
        for c in block:
            candidates.remove(c)
            for ln in c.lines:
                ln.role = "title"
        return None
    front.extend(c for c in block if c not in front)
    title = max(front, key=lambda c: c.size)
    # where the text starts: the leftmost line of prose on the page
    prose = [ln for ln in first_page if abs(ln.size - body) < 0.6 and len(ln.text.split()) >= 8]
    text_left = min((ln.x0 for ln in prose), default=None)
    text_right = max((ln.x1 for ln in prose), default=None)
    centred = text_right is not None and all(
        abs((ln.x0 - text_left) - (text_right - ln.x1)) < 6 for ln in title.lines if text_left is not None
    )
    # sections numbered from the top ("1 Overview", "Chapter 2") are the document's top level
    numbered_top = any(c.numbered and c.order <= ORDER["roman"] + 1 for c in candidates)
    if (
        text_left is not None
        and abs(title.lines[0].x0 - text_left) <= 6
        and len(candidates) > len(front)
        and len(front) == 1
        and not centred
        and not numbered_top
    ):
        # a lone title set flush with the text, like the unnumbered headings under it (a web page
        # or a note printed to PDF), heads the document, as its outline's root does; a centred
        # title, a title block with authors set as headings, or a title over sections numbered
        # from 1 (a paper) does not
        front.remove(title)
    for c in front:
        candidates.remove(c)
        for ln in c.lines:
            ln.role = "title"
    return title.title


def _title_block_faces(
    candidates: list[Candidate], first_page: list[PdfLine], first_index: int, body: float, taken: set[int]
) -> list[Candidate]:
    """Return the page-1 headings above the first paragraph set in faces no later page uses.

    Authors' names and affiliations set side by side in a paper's title block
    (two or more lines, in faces seen nowhere else in the document) are no
    sections, even when the columns put one of them after the first heading in
    reading order.
    """
    prose_top = min(
        (ln.top for ln in first_page if abs(ln.size - body) < 0.6 and len(ln.text.split()) >= 8),
        default=None,
    )
    if prose_top is None or not any(c.page != first_index for c in candidates):
        return []
    # (in a title block of two columns, authors beside the abstract, the block ends where the
    # first numbered section starts, below both)
    first_section = next((c for c in candidates if c.page == first_index and c.numbered), None)
    if first_section is not None:
        prose_top = max(prose_top, first_section.lines[0].top)

    def face(c: Candidate) -> tuple[float, bool]:
        return (round(c.size * 2) / 2, c.bold)

    later = {face(c) for c in candidates if c.page != first_index}
    block = [
        c
        for c in candidates
        if c.page == first_index
        and not c.numbered
        and c.toc_level is None
        and c.lines[0].top < prose_top
        and face(c) not in later
        and normalize_for_match(c.title) not in FRONT_KEEP
    ]
    # (two lines or more in such faces, counting those already taken into the block: a second
    # author whose first one sits over an affiliation)
    return [c for c in block if id(c) not in taken] if len(block) >= 2 else []


def has_prose(lines: list[PdfLine], body: float) -> bool:
    """Tell whether a page has a paragraph: a line of eight words or more at the body size.

    Words are counted as :func:`word_count` counts them (Chinese sets none apart).
    """
    return any(abs(ln.size - body) < 0.6 and word_count(ln.text) >= 8 for ln in lines)


def _cover_pages(pages: list[list[PdfLine]], body: float, first: int) -> set[int]:
    """Return the leading pages (two at most, blank pages not counted) that are a cover or a title page.

    Such a page has a few lines and no paragraph of body text (no line of eight
    words or more at the body size, nor three such lines set a little larger:
    a class's documentation whose long index and change history in 9 pt give
    the body size under its 10 or 10.5 pt prose) and is no contents page, and prose
    follows on a later page. A blank page between them (a thesis's cover, its
    blank back, then its title page) is passed over.
    """
    out: set[int] = set()
    for index in [i for i in range(first, min(first + 4, len(pages))) if pages[i]][:2]:
        lines = pages[index]
        if has_prose(lines, body) or len(lines) > 30 or any(ln.role == "toc" for ln in lines):
            break
        if sum(1 for ln in lines if word_count(ln.text) >= 8 and body - 0.6 < ln.size < 1.2 * body) >= 3:
            break
        out.add(index)
    if out and not any(has_prose(lines, body) for lines in pages[max(out) + 1 :]):
        return set()
    return out
