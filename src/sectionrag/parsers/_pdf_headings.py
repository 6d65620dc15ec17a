"""Heading candidates of PDF pages: which lines look like headings, and multi-line titles.

A line is a candidate from its own evidence (size against the body text,
weight, numbering, spacing, position); :mod:`sectionrag.parsers._pdf_levels`
then filters the candidates against each other and ranks them into levels.
"""

from __future__ import annotations

import itertools
import re
import statistics
import unicodedata
from collections import Counter
from dataclasses import dataclass

from sectionrag.parsers._pdf_faces import (
    SMALL_CAPS_FONT,
    Style,
    caseless_heading_styles,
    caseless_line,
    code_heading_styles,
    hangs,
    light_heading_styles,
    margin_heading_styles,
    rising,
    small_heading_styles,
    style_of,
    term_styles,
    text_left,
)
from sectionrag.parsers._pdf_layout import (
    in_other_column,
    in_right_column,
    lines_by_row,
    prose_columns,
    right_column_start,
)
from sectionrag.parsers._pdfium import CODE_FONT, PdfLine, font_family
from sectionrag.parsers._sections import WORD_EDGES, join_title_lines, normalize_title
from sectionrag.parsers.headings import (
    ADMONITIONS,
    APPENDIX_WORDS,
    BOOK_TITLES,
    CHAPTER_WORDS,
    LABEL_WORD_KINDS,
    NUMBER_WORDS,
    NUMBERED_BOX_WORDS,
    PART_WORDS,
    HeadingStyle,
    classify,
    is_all_caps,
    is_toc_line,
    letter_weight,
    looks_like_sentence,
    normalize_for_match,
    reads_as_labelled_title,
    reference_name,
    word_count,
)

__all__ = ["ORDER", "Candidate", "find_headings", "label_key", "numbering_order"]


@dataclass(slots=True)
class Candidate:
    """A heading found on a page, before levels are assigned."""

    lines: list[PdfLine]
    title: str
    size: float
    bold: bool
    order: int  # numbering precedence (smaller is higher)
    numbered: bool
    page: int
    index: int  # position of its first line in the page's ordered lines
    italic: bool = False
    toc_level: int | None = None  # its level in the printed contents, when it is an entry there
    cell_repeats: int = 0  # how many cells of ruled tables print its title (a column head elsewhere)


# ------------------------------------------------------------------- headings


def label_key(title: str) -> str:
    r"""Return a title as a recurring label: its words, case folded, its digits as one mark.

    ``B hook`` and ``D hook`` stay apart; ``Sched C \\ N293`` and ``Sched C \\
    N294``, the terms of a long list of codes, are one label.
    """
    return _DIGITS.sub("#", " ".join(title.casefold().split()))


_DIGITS = re.compile(r"\d+")

ORDER = {"part": 0, "chapter": 1, "appendix": 1, "article": 1, "item": 2, "note": 3, "section": 3, "roman": 4}


def numbering_order(text: str) -> tuple[int, bool]:
    style = classify(text)
    if style is None or style.kind in ("caps", "alpha"):
        return 5, False
    if style.kind in ("num", "alnum") or (style.kind == "appendix" and style.depth >= 2):
        return 4 + style.depth, True
    if style.kind == "roman-alpha":
        return 6, True
    return ORDER.get(style.kind, 5), True


_NUMBER_WORDS = {w: str(i) for i, w in enumerate(NUMBER_WORDS)}


def _bare_number(text: str) -> str | None:
    """Return the number a lone chapter label stands for (``One``, ``12``, appendix ``E``), else ``None``."""
    word = text.strip().rstrip(".")
    if len(word) == 1 and "A" <= word <= "Z":
        return word
    word = word.lower()
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    if word.isdigit() and len(word) <= 3:
        return word
    return None


def _is_label_only(text: str) -> bool:
    style = classify(text)
    return (
        style is not None
        and style.kind in ("part", "chapter", "appendix", "article", "section")
        and not style.rest
    )


# (and those of the languages babel sets most: a French, German, Spanish, Portuguese, Italian,
# Vietnamese or Russian title breaking after "de", "für", "del", "về", "для"; not the one-letter
# "e" and "y", which end "Appendix E" as often)
_CONNECTORS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to"}
    | {"via", "with", "&", "\u2013", "\u2014", "-"}
    | {"de", "des", "du", "et", "la", "le", "les", "pour", "sur", "avec", "dans", "par", "aux"}
    | {"der", "die", "das", "den", "dem", "des", "und", "f\u00fcr", "mit", "von", "zu", "zum", "zur", "im"}
    | {"del", "el", "para", "con", "por", "los", "las", "da", "do", "dos", "das", "di", "della"}
    | {"per", "il", "v\u1ec1", "c\u1ee7a", "v\u00e0", "cho", "v\u1edbi", "trong"}
    | {
        "\u0438",
        "\u0432",
        "\u043d\u0430",
        "\u0434\u043b\u044f",
        "\u0441",
        "\u043f\u043e",
        "\u0438\u0437",
        "\u043e",
    }
)


def _runs_on(text: str) -> bool:
    """Tell a line that cannot end a title: it breaks after a connecting word or a hyphen."""
    words = text.split()
    return bool(words) and (words[-1].lower() in _CONNECTORS or text.endswith(("-", ",")))


# (a lone "Annex" is not read as a label over its number here)
_LABEL_WORDS = (frozenset(CHAPTER_WORDS + PART_WORDS + APPENDIX_WORDS) - {"annex"}) | {
    "book",
    "lecture",
    "lesson",
    "unit",
}


def _is_label_word(text: str) -> bool:
    """Tell a lone ``CHAPTER`` or ``Part`` set over its number (``ONE``, ``2``) on the next line."""
    return text.strip().rstrip(".:").lower() in _LABEL_WORDS


def _join_side_numbers(lines: list[PdfLine], body: float) -> None:
    """Join a chapter number set large beside its title, read after it, to the title line.

    A book style may set the chapter's number large in the outer margin, level
    with or just above a short title (``EXAMPLES`` with a large ``2`` to its
    right), so that the reading order puts the number after the title. The
    title line becomes ``2 EXAMPLES`` at the number's size; the number's own
    line goes.
    """
    k = 0
    while k + 1 < len(lines):
        title, number = lines[k], lines[k + 1]
        if (
            _bare_number(number.text) is not None
            and not any(ch.isalpha() for ch in number.text)
            and number.size >= 1.4 * body
            and title.size < number.size
            and any(ch.isalpha() for ch in title.text)
            and len(title.text.split()) <= 8
            and number.top <= title.bottom
            and number.bottom >= title.top - body
        ):
            title.text = f"{number.text} {title.text}"
            title.size = number.size
            del lines[k + 1]
        k += 1


def find_headings(pages: list[list[PdfLine]], body: float) -> list[Candidate]:
    """Find heading lines on every page (multi-line titles merged)."""
    for lines in pages:
        _join_side_numbers(lines, body)
    gaps: list[float] = []
    for lines in pages:
        for a, b in itertools.pairwise(lines):
            if abs(a.size - body) < 0.6 and abs(b.size - body) < 0.6 and 0 < b.top - a.top < 3 * body:
                gaps.append(b.top - a.top)
    pitch = statistics.median(gaps) if gaps else body * 1.2
    light = light_heading_styles(pages, body)
    code_heads = code_heading_styles(pages, body)
    small = small_heading_styles(pages, body) | code_heads
    code_scale = _code_scale(pages, body)
    terms = term_styles(pages, body)
    caseless = caseless_heading_styles(pages, body)
    margin = margin_heading_styles(pages, body)
    family = _text_family(pages, body)
    out: list[Candidate] = []
    cell_titles: Counter[str] = Counter()
    known = _DocumentWords(pages).__contains__  # (read only for a title hyphenated across lines)
    # a page whose own prose is set larger or smaller than the document's (a sample document shown
    # inside a manual, at 12 pt in a 10 pt guide) measures its lines against its own text
    faces = _page_text_faces(pages, body, pitch)
    for page_index, lines in enumerate(pages):
        text_width = max((ln.x1 for ln in lines), default=0.0) - min((ln.x0 for ln in lines), default=0.0)
        left = text_left(lines)
        prose_left = text_left(lines, words=5)
        leadered = [ln for ln in lines if is_toc_line(ln.text)]
        referenced = sum(1 for ln in lines if _ends_with_page_ref(ln.text) and not is_toc_line(ln.text))
        toc_lines = len(leadered) + referenced
        # (an index's leadered entries are no contents: their page numbers do not rise)
        toc_page = toc_lines >= 5 and toc_lines >= 0.3 * len(lines) and rising(leadered)
        toc_size = max((ln.size for ln in leadered), default=0.0)
        # on a contents page, an entry whose page number is a separate piece of its row
        numbered_rows = {ln.row for ln in lines if _BARE_PAGE.match(ln.text)} if toc_page else set()
        by_row = lines_by_row(lines)
        # where columns of prose start: a heading beside another one there is in the next column
        columns = prose_columns(lines)
        signatures = [ln for ln in lines if _SIGNED.match(ln.text)]
        page_body, page_pitch = faces[page_index]
        i = 0
        while i < len(lines):
            ln = lines[i]
            prev = lines[i - 1] if i > 0 else None
            nxt = lines[i + 1] if i + 1 < len(lines) else None
            in_margin = left is not None and ln.x1 < left
            marginal = (
                prose_left is not None
                and ln.x1 < prose_left
                and style_of(ln) in margin
                and _is_margin_heading(ln)
            )
            # (a line in bold or italics that may be a title wrapping over two or three lines)
            run = _title_run(lines, i) if ln.bold or ln.italic else None
            wraps = run is not None and _wrapped_title(*run)
            set_off = run is not None and wraps and _set_off_title(*run, prev)
            ok = marginal or _is_heading_line(
                ln,
                prev,
                nxt,
                page_body,
                page_pitch,
                light,
                small,
                caseless,
                family,
                _column_foot(lines, i),
                wraps,
                set_off,
            )
            if (
                ok
                and toc_page
                and (ln.size <= toc_size + 0.5 or _has_page_piece(ln, lines, numbered_rows))
                and normalize_for_match(ln.text) not in BOOK_TITLES  # the page's own title stays
            ):
                ok = False
            if ok and ln.ruled:
                # a cell of a table drawn with rules ("Operator" over "Description", boxed); its title
                # still counts as a label where it heads another table
                cell_titles[label_key(ln.text)] += 1
                ok = False
            if ok and ln.run_in and not marginal:
                ok = False  # a larger name run into its text inside the block (a member's title over code)
            # a marginal label ("NOTE" beside a box) is no heading; a heading set out left of the text
            # on a row of its own is one ("Options" over its sub-sections)
            beside_text = any(o.x0 >= ln.x1 for o in by_row[ln.row] if o is not ln)
            if ok and in_margin and not marginal and beside_text:
                ok = False
            if ok and not numbering_order(ln.text)[1] and _under_table_caption(lines, i, body):
                ok = False  # a caption's second line or its table's header row ("Menu Item")
            if ok and style_of(ln) in terms and hangs(lines, i, body) and not numbering_order(ln.text)[1]:
                ok = False  # the term of a definition ("Constant: AES_BLOCK_SIZE" over its indented text)
            if (
                ok
                and not marginal
                and not ln.lead  # (a run-in head shares its row with the text it runs into)
                and any(
                    _cell_beside(ln, o)
                    and not {round(o.x0 / 3) + d for d in (-1, 0, 1)} & columns
                    and not in_other_column(ln, o, columns)
                    for o in (*by_row[ln.row], *_staggered(ln, by_row))
                    if o is not ln
                )
            ):
                ok = False  # a table's header or row label: bold cells or figures share its row
            if ok and not marginal and not ln.lead and _in_a_bar(ln, by_row[ln.row]):
                ok = False  # a bar of links or a row of cells: "Prev", "Up", "Chapter 9 ...", "Home", "Next"
            if ok and not marginal and not numbering_order(ln.text)[1] and _alone_in_table(ln, by_row, body):
                ok = False  # a table's group label or column head set alone in its row ("Assets")
            if ok and _PARENTHESISED.match(ln.text):
                ok = False  # a note under a title ("(In millions, except per share data)", "(Unaudited)")
            if ok and _AMOUNT.match(ln.text):
                ok = False  # a chart label opening on an amount ("2,073 Q3 2023 Operating Income")
            if ok and _under_signature(ln, signatures):
                ok = False  # the signer's name and title under "/s/ Andrew R. Jassy"
            if ok and not marginal and _after_text(ln, by_row, columns):
                ok = False  # the rest of a line of text set in another face (a cited title in italics)
            if (
                ok
                and prev is not None
                and prev.font == ln.font
                and prev.row == ln.row - 1
                and 0 < ln.top - prev.top < 1.3 * page_pitch  # the next line at the text's leading
                and _after_text(prev, by_row, columns)
            ):
                ok = False  # that run of another face wrapped onto this line
            if not ok:
                i += 1
                continue
            group = [ln]
            j = i + 1
            # (a filing's item title runs long: "Item 5.02 Departure of Directors or Certain
            # Officers; Election of Directors; Appointment of" / "Certain Officers; ...")
            head_style = classify(ln.text)
            longest = 30 if head_style is not None and head_style.kind in LABEL_WORD_KINDS else 20
            numbered_head = head_style is not None and head_style.kind not in ("caps", "alpha")
            # (a labelled title of a few lines may break after a comma: "A. ... Models," / "Mobsters")
            labelled_run = wraps and _STOPPED_NUMBER.match(ln.text) is not None
            while j < len(lines) and len(group) < 8:
                nxt = lines[j]
                last = group[-1]  # a title wrapped under a label line continues in the title's face
                # (a title in small capitals does not go on in the text's lower case: amsart's
                # "3. Applied Econometrics" over "The party package aims at ...")
                same_style = (
                    abs(nxt.size - last.size) < 0.6
                    and nxt.bold == last.bold
                    and nxt.italic == last.italic
                    and bool(SMALL_CAPS_FONT.search(nxt.font)) == bool(SMALL_CAPS_FONT.search(last.font))
                ) or _small_capitals_wrap(last, nxt)
                label_word = _is_label_word(group[0].text)
                label_first = (
                    len(group) == 1
                    and (
                        _is_label_only(group[0].text)
                        or label_word
                        or (_bare_number(group[0].text) is not None and ln.size >= 1.4 * page_body)
                    )
                ) or (len(group) == 2 and label_word and _bare_number(group[1].text) is not None)
                # a wrapped line follows the line above it at that line's leading (a title in the
                # text's own face at that of the text: what stands apart under it is its text)
                reach = 4.0 * max(ln.size, page_body) if label_first else 1.2 * max(group[-1].size, page_body)
                if not label_first and not (last.bold or last.italic) and last.size < 1.12 * page_body:
                    reach = min(reach, 2 * max(page_pitch - last.height, 0.5))
                close = 0 <= nxt.top - group[-1].bottom < reach
                if nxt.role == "table" or not close:
                    break
                nxt_style = classify(nxt.text)
                # a bare label word under a label is its title ("Part III." over "Appendix")
                nxt_numbered = (
                    nxt_style is not None
                    and nxt_style.kind not in ("caps", "alpha")
                    and not _is_label_word(nxt.text)
                )
                if (
                    label_first
                    and not nxt_numbered
                    and not _CAPTION.match(nxt.text)  # ("Chapter 4" over "Table 1: Summary" is no title)
                    and (nxt.size >= min(ln.size - 0.6, 1.2 * page_body) or nxt.bold or is_all_caps(nxt.text))
                    and not (len(group) == 1 and label_word and _bare_number(nxt.text) is None)
                ):
                    group.append(nxt)
                    j += 1
                    continue
                words = sum(len(g.text.split()) for g in group) + len(nxt.text.split())
                # a numbered title going on under its hanging indent, where its first word stands
                # ("2.2 Various Versatile Variances" over "Object-Oriented Computation of")
                hanging = (
                    numbered_head
                    and group[0].title_x is not None
                    and nxt.x0 > group[0].x0 + 1
                    and abs(nxt.x0 - group[0].title_x) < 0.4 * max(nxt.size, 1.0)
                )
                # (a short line that cannot end a title, centred, wraps all the same)
                wrapped = (
                    hanging
                    or last.x1 - last.x0 >= 0.35 * text_width
                    or last.size >= 1.3 * page_body
                    or (
                        _runs_on(last.text)
                        and not last.text.endswith(",")
                        and is_all_caps(last.text) == is_all_caps(nxt.text)
                    )
                )
                # short lines of one style stacked flush under each other: one heading set line by line
                stack = (
                    nxt.font == last.font
                    and all(len(g.text.split()) <= 5 for g in (*group, nxt))
                    and (abs(nxt.x0 - last.x0) < 2 or (marginal and abs(nxt.x1 - last.x1) < 2))
                    and 0 <= nxt.top - last.bottom < 0.5 * last.size
                )
                if not stack and len(group) >= (4 if hanging else 3):
                    break
                # a run-in capitals head over its text changes case; a title that breaks after "and"
                # before an acronym ("Classes for IJDC and" / "IDCC") does not end there; a short last
                # word in capitals goes on with a title in capitals ("... FOR THE EVALUATION" / "OF")
                nxt_caps = is_all_caps(nxt.text) or (
                    len(nxt.text.split()) == 1 and nxt.text.isupper() and is_all_caps(group[-1].text)
                )
                case_change = is_all_caps(group[-1].text) != nxt_caps and not _runs_on(group[-1].text)
                if (
                    same_style
                    and (wrapped or stack)
                    # (a question set as a numbered title runs long; under its hanging indent it goes on)
                    and (words <= (2 * longest if hanging else longest) or stack)
                    and not case_change
                    and not _CAPTION.match(nxt.text)
                    and (
                        # (a question under its hanging indent may hold a sentence before it: "3.1.3
                        # Stable releases hold old versions." over "Look at the kernel. Why?")
                        hanging
                        # (a numbered title may start with a name in lower case, "4. strucchange
                        # ...", and a wrapped line goes on in mid-phrase, "ence Reading ...")
                        or not looks_like_sentence(
                            group[-1].text, max_words=longest, allow_lower=len(group) > 1 or numbered_head
                        )
                        or (group[-1].text.endswith(",") and (last.size >= 1.4 * page_body or labelled_run))
                        or (longest > 20 and group[-1].text.endswith(";"))
                    )
                ):
                    # (a line opening on a label starts a heading of its own, unless the title above
                    # cannot end where it breaks: "CERTIFICATION PURSUANT TO" / "SECTION 906 OF ...")
                    if nxt_style is not None and nxt_style.kind != "caps" and not _runs_on(group[-1].text):
                        break
                    group.append(nxt)
                    j += 1
                    continue
                break
            if len(group) == 1 and not any(ch.isalpha() for ch in ln.text) and _bare_number(ln.text):
                i += 1  # a large number over nothing that reads as a title: a figure, not a chapter
                continue
            number = _bare_number(group[0].text) if len(group) > 1 else None
            word_label = len(group) > 2 and _is_label_word(group[0].text) and _bare_number(group[1].text)
            if word_label:  # "CHAPTER" over "ONE" over "About this manual" -> "CHAPTER 1 About this manual"
                rest = join_title_lines((g.text for g in group[2:]), known)
                title = normalize_title(f"{group[0].text} {word_label} {rest}")
            elif number is not None:  # "One" over "Starting off" -> "1 Starting off"
                title = join_title_lines([number, *(g.text for g in group[1:])], known)
            else:
                title = join_title_lines((g.text for g in group), known)
            if (ln.lead or group[-1].lead) and title[-1:] in ".:":
                title = title[:-1].rstrip()  # the stop that runs a head into its paragraph is no part of it
            small_caps = all(SMALL_CAPS_FONT.search(g.font) for g in group)  # "a.1 appendix" is "A.1"
            order, numbered = numbering_order(title.upper() if small_caps else title)
            labelled = len(group) > 1 and (
                number is not None or bool(word_label) or _is_label_only(group[0].text)
            )
            size = group[-1].size if labelled else max(g.size for g in group)
            if style_of(group[-1]) in code_heads:
                size /= code_scale  # a heading of code ranks as the text face its code stands in for
            out.append(
                Candidate(
                    group,
                    title,
                    size,
                    all(g.bold for g in group[-1:]),
                    order,
                    numbered,
                    page_index,
                    i,
                    group[-1].italic,
                )
            )
            for g in group:
                g.role = "heading"
            i = j
    for candidate in out:
        candidate.cell_repeats = cell_titles[label_key(candidate.title)]
    return _without_figure_art(_without_continuations(_without_echoes(out, pages)), pages)


class _DocumentWords:
    """The words of a document's lines, lower-cased, gathered the first time one is asked for."""

    def __init__(self, pages: list[list[PdfLine]]) -> None:
        self._pages = pages
        self._words: set[str] | None = None

    def __contains__(self, word: object) -> bool:
        if self._words is None:
            texts = (ln.text for lines in self._pages for ln in lines)
            self._words = {w.strip(WORD_EDGES).casefold() for text in texts for w in text.split()}
        return word in self._words


def _without_echoes(candidates: list[Candidate], pages: list[list[PdfLine]]) -> list[Candidate]:
    """Drop a heading whose title the next heading repeats on its page with no prose between.

    A web page printed from a browser shows its title in its header bar
    (``9.16. JSON Functions and Operators`` over ``Prev  Up ... Next``) and
    again as its own heading just under it: the second one heads the text.
    """
    out: list[Candidate] = []
    for c, nxt in itertools.zip_longest(candidates, candidates[1:]):
        between = pages[c.page][c.index + len(c.lines) : nxt.index] if nxt is not None else []
        if (
            nxt is not None
            and nxt.page == c.page
            and nxt.title.split() == c.title.split()
            # (a line of text between them: twenty characters or more, not in bold like the bar's links)
            and not any(len(ln.text) >= 20 and not ln.bold for ln in between)
        ):
            continue
        out.append(c)
    return out


def _small_capitals_wrap(last: PdfLine, nxt: PdfLine) -> bool:
    """Tell whether ``nxt`` goes on with a title in capitals whose small capitals are a smaller size.

    A face without small capitals fakes them with its capitals set smaller, so
    a title's line that holds no capital of its own (IEEE's ``III. FITTING
    LINEAR MIXED-EFFECTS MODELS USING`` at 10 pt over ``LME4 PARTY WITH THE
    MOB``, all small capitals, at 8 pt) reads a size below the line above.
    """
    return (
        nxt.font == last.font
        and nxt.bold == last.bold
        and nxt.italic == last.italic
        and 0.7 * last.size <= nxt.size <= 0.9 * last.size
        and is_all_caps(last.text)
        and is_all_caps(nxt.text)
    )


def _wrapped_title(run: list[PdfLine], after: PdfLine) -> bool:
    """Tell whether ``run``, lines in bold or italics (``_title_run``), may be a title that wraps.

    IEEE sets a sub-section's title in the text's italics (``B. Genetic
    Optimization Using Derivatives Various Versatile``), REVTeX in bold a
    size below the text; a long one goes on for a line or two of that face
    at the face's own leading, and upright text follows. A paragraph in
    that face runs longer or ends in a stop. (The caller asks for a label.)
    """
    text = " ".join(r.text for r in run).rstrip()
    return (
        not after.italic
        and not after.bold
        and after.row != run[-1].row
        and len(text.split()) <= 25
        and text[-1:] not in ".,;:"
    )


_WORD = re.compile(r"[^\W_][\w'\u2019.-]*[,.:;?!]?")


def _title_run(lines: list[PdfLine], i: int) -> tuple[list[PdfLine], PdfLine] | None:
    """Return the two or three lines from ``lines[i]`` in its face at its leading, and the line after."""
    run = [lines[i]]
    k = i + 1
    while k < len(lines) and len(run) < 4:
        nxt = lines[k]
        last = run[-1]
        if nxt.font != last.font or abs(nxt.size - last.size) >= 0.3 or nxt.row == last.row:
            break
        if not 0 <= nxt.top - last.bottom < 0.6 * last.size:
            break
        run.append(nxt)
        k += 1
    if not 2 <= len(run) <= 3 or k >= len(lines):
        return None
    return run, lines[k]


def _set_off_title(run: list[PdfLine], after: PdfLine, prev: PdfLine | None) -> bool:
    """Tell whether ``run`` (``_title_run``, under ``prev``) is a bold title that wraps, told by its shape.

    Its two or three lines (a wrapped title, ``_wrapped_title``) stand apart
    from the lines above and below by well over their own leading, and they
    are set as a title is: the first fills the measure of the text that
    follows and the last is shorter, or they are centred on it
    (``ORDER-RESTRICTED SCORES TEST FOR THE EVALUATION`` over ``OF``).
    """
    if not all(r.bold for r in run):
        return False
    words = " ".join(r.text for r in run).split()
    if sum(_WORD.fullmatch(w) is not None for w in words) < 0.75 * len(words):
        return False  # (a command in bold, "defaults write $(mdls -name ...)", reads as no words)
    size = run[0].size
    leading = max(max(b.top - a.bottom for a, b in itertools.pairwise(run)), 0.1 * size)
    above = run[0].top - prev.bottom if prev is not None and prev.bottom <= run[0].top else None
    below = after.top - run[-1].bottom
    apart = max(2.5 * leading, 0.8 * size)
    if below < apart or (above is not None and above < apart):
        return False
    first, last = (r.x1 - r.x0 for r in (run[0], run[-1]))
    # (a title's last line is the short one: well short where the first fills the measure)
    fills = abs(run[0].x0 - after.x0) < size and run[0].x1 >= after.x1 - 2 * size and last < first - 2 * size
    middle = (after.x0 + after.x1) / 2
    centred = (
        all(abs((r.x0 + r.x1) / 2 - middle) < size for r in run)
        and run[0].x0 > after.x0 + size
        and last <= first
    )
    return fills or centred


def _column_foot(lines: list[PdfLine], i: int) -> bool:
    """Tell whether the ``i``-th line ends its column: the next one starts the next column, higher up.

    ``ACKNOWLEDGMENT`` at the foot of the left column is followed in reading
    order by the right column's first line at the top of the page; no line of
    the page stands under it. (A cell of a table read column by column has
    the cells of the rows below under it.)
    """
    ln = lines[i]
    if i + 1 >= len(lines) or not lines[i + 1].column_top or lines[i + 1].bottom >= ln.top:
        return False
    return not any(o.top >= ln.bottom and o.x0 < ln.x1 and o.x1 > ln.x0 for o in lines)


def _inside_number(label: str, parent: str) -> bool:
    """Tell whether a heading's number lies inside its parent's (``A.1`` in ``A``, ``3.2`` in ``3``)."""
    outer = parent.split()[0].rstrip(".:") if parent.split() else ""
    own = label.rstrip(".").split()[-1] if label.split() else ""
    return (
        _OUTER_NUMBER.fullmatch(outer) is not None
        and own.startswith(outer + ".")
        and own.count(".") == outer.count(".") + 1
    )


_OUTER_NUMBER = re.compile(r"(?:[A-Z]|\d{1,3})(?:\.\d{1,3})*")


def _text_family(pages: list[list[PdfLine]], body: float) -> str | None:
    """Return the font family most of the text at the body size is set in."""
    counts: Counter[str] = Counter()
    for lines in pages:
        for ln in lines:
            if abs(ln.size - body) < 0.6 and not CODE_FONT.search(ln.font):
                counts[font_family(ln.font)] += len(ln.text)
    return counts.most_common(1)[0][0] if counts else None


_STOPPED_NUMBER = re.compile(r"^(?:\d{1,3}|[A-Z])(?:\.\d{1,3})*\.\s+\S")
_SUBSECTION_NUMBER = re.compile(r"^(?:\d{1,3}|[A-Z])(?:\.\d{1,3}){1,4}\.?\s+\S")


def _under_table_caption(lines: list[PdfLine], i: int, body: float) -> bool:
    """Tell whether a line sits tight under a table's caption, at most one line below it.

    A caption set above its table (``Table 4.2. Account Tree - Edit-Menu ...``,
    bold, wrapping onto ``and preferences.``) is followed at a line's leading
    by its own second line and by the table's header row (``Menu Item`` over
    its column): neither is a section. A heading after a table keeps the
    space a heading has above it, and a numbered one is never taken here.
    """
    ln = lines[i]
    for k in (i - 1, i - 2):
        if k < 0:
            return False
        above, below = lines[k], lines[k + 1]
        if not 0 <= below.top - above.bottom < 1.4 * max(above.size, body):
            return False
        if _TABLE_CAPTION.match(above.text):
            return ln.size <= above.size + 0.5
    return False


def _in_a_bar(ln: PdfLine, row: list[PdfLine]) -> bool:
    """Tell whether a line shares its row with three short pieces or more (a web page's navigation bar).

    A page printed from a browser keeps the bar of links over and under its
    text (``Prev  Up  Chapter 9. Functions and Operators  Home  Next``); its
    middle link is set in bold like a heading, but a heading does not share
    its row with three other pieces.
    """
    others = [o for o in row if o is not ln]
    return len(others) >= 3 and all(len(o.text.split()) <= 3 for o in others)


def _under_signature(ln: PdfLine, signatures: list[PdfLine]) -> bool:
    """Tell whether a line stands in a signature block: up to four lines under a conformed signature.

    A filing or a contract signs with ``/s/`` and the signer's name; the name
    printed again under it, and the title under that, are no headings.
    """
    return any(
        0 <= ln.top - s.bottom < 4 * max(s.size, ln.size) and ln.x0 < s.x1 and s.x0 < ln.x1
        for s in signatures
    )


def _alone_in_table(ln: PdfLine, by_row: dict[int, list[PdfLine]], body: float) -> bool:
    """Tell a table's label or column head set alone in its row from a heading over a table.

    A statement's group label (``Assets``, ``Liabilities (1)``) stands
    between rows of its table: one above it a line or two away, and one
    tight under it (perhaps after a short sub-label, ``Current assets:``),
    a little further where the page sets its table rows far apart. A column
    head (``Reported as`` over ``Amortized Cost``) stands at most a line's
    height over its table's rows, at the text's size, far right of where
    the page's lines start and not centred on them. A heading over a table
    keeps the space a heading has under it.
    """
    # (on a page of two columns of prose, only the pieces of the column ``ln`` stands in)
    right_column = right_column_start([p for pieces in by_row.values() for p in pieces])
    side = in_right_column(ln, right_column)
    by_row = {
        r: kept
        for r, pieces in by_row.items()
        if (kept := [p for p in pieces if in_right_column(p, right_column) == side])
    }
    rows = sorted(
        (
            _Row(min(p.top for p in pieces), max(p.bottom for p in pieces), pieces, r)
            for r, pieces in by_row.items()
        ),
        key=lambda row: row.top,
    )
    table_gaps = [b.top - a.bottom for a, b in itertools.pairwise(rows) if a.in_table and b.in_table]
    size = max(ln.size, body)  # (a table's rows set far apart allow a little more, up to a line)
    tight = max(0.9 * size, min(1.25 * statistics.median(table_gaps), size) if table_gaps else 0.0)
    k = next(i for i, row in enumerate(rows) if row.index == ln.row)
    below = rows[k + 1 : k + 4]
    above = rows[max(0, k - 3) : k][::-1]
    if _table_rows_reached(ln, below, tight, tight, down=True) and _table_rows_reached(
        ln, above, 2.5 * size, tight, down=False
    ):
        return True
    pieces = [p for row in rows for p in row.pieces if p.role != "furniture"]
    left = min(p.x0 for p in pieces)
    right = max(p.x1 for p in pieces)
    width = right - left
    off_centre = abs((ln.x0 + ln.x1) / 2 - (left + right) / 2) > 0.03 * width
    return (
        ln.size < 1.15 * body
        and ln.x0 > left + 0.3 * width
        and off_centre
        # (a column head may stand a line's height over the header row under it)
        and _table_rows_reached(ln, below, max(tight, size), tight, down=True)
    )


@dataclass(slots=True)
class _Row:
    """A row of a page, for :func:`_alone_in_table`: its top and bottom edges and its pieces."""

    top: float
    bottom: float
    pieces: list[PdfLine]
    index: int  # (``PdfLine.row``)

    @property
    def in_table(self) -> bool:
        return any(p.role == "table" for p in self.pieces)


def _table_rows_reached(ln: PdfLine, rows: list[_Row], first_gap: float, gap: float, *, down: bool) -> bool:
    """Tell whether rows of a table follow ``ln`` (below it, or above it) across short rows only.

    ``rows`` are the rows next to ``ln`` in that direction, nearest first;
    the first may stand ``first_gap`` away, each next one ``gap`` from the
    one before. A row of cells is a table's where one of them is a figure
    and the layout reader read it as a table's row (its label may then be
    long), or where none is a line of prose and there are
    three or more, or all are bold (a header row over its columns; two lines
    side by side are a page of two columns). A row holding a line of prose,
    or the page's furniture, ends the search.
    """
    edge = ln.bottom if down else ln.top
    for step, row in enumerate(rows):
        pieces = row.pieces
        if (row.top - edge if down else edge - row.bottom) > (first_gap if step == 0 else gap):
            return False
        if any(p.role in ("furniture", "toc") for p in pieces):
            return False
        prose = any(len(p.text.split()) > 6 for p in pieces)
        if len(pieces) >= 2 and (
            (row.in_table and any(_is_figure(p.text) for p in pieces))
            or (not prose and (len(pieces) >= 3 or all(p.bold for p in pieces)))
        ):
            return True
        if prose:
            return False
        edge = row.bottom if down else row.top
    return False


def _without_figure_art(candidates: list[Candidate], pages: list[list[PdfLine]]) -> list[Candidate]:
    """Drop the words drawn inside a figure, over its caption and larger than the numbered headings.

    ``Image`` in 43 pt over ``Figure 1: Example Image`` is no section. A
    heading is followed by its text; a line whose next line is a caption is
    in the figure above that caption, unless it is numbered or set no larger
    than the numbered headings (a section that opens with a figure).
    """
    numbered = [c.size for c in candidates if c.numbered]
    if not numbered:
        return candidates
    largest = max(numbered)
    out = []
    for c in candidates:
        lines = pages[c.page]
        after = c.index + len(c.lines)
        over_caption = after < len(lines) and _CAPTION.match(lines[after].text) is not None
        if not c.numbered and c.size > largest + 0.5 and over_caption:
            for g in c.lines:
                g.role = "body"
            continue
        out.append(c)
    return out


# "Example - 2/13", "Commands 2/3 (excerpt)", "Projects (2/2)": one title over a run of pages
_COUNTER = re.compile(r"(?<![\d/])\(?(?P<k>\d{1,2})\s*/\s*(?P<n>\d{1,2})\)?(?![\d/])")


def _counted(title: str) -> tuple[str, int, int] | None:
    """Return ``(stem, k, n)`` for a title numbered ``k/n`` (``1 <= k <= n``, ``n >= 2``)."""
    matches = list(_COUNTER.finditer(title))
    if len(matches) != 1:
        return None
    m = matches[0]
    k, n = int(m.group("k")), int(m.group("n"))
    if not 1 <= k <= n or n < 2:
        return None
    stem = (title[: m.start()] + " " + title[m.end() :]).strip(" -\u2013\u2014:,")
    return " ".join(stem.lower().split()), k, n


_CONTINUED = re.compile(r"\(\s*continued\s*\)|[-\u2013\u2014]\s*continued\s*$", re.IGNORECASE)


def _without_continuations(candidates: list[Candidate]) -> list[Candidate]:
    """Drop the headings that continue an earlier one.

    Slides and long tables repeat one title over a run of pages with a
    counter (``Example - 2/3`` right after ``Example - 1/3``); statements
    and tables say so (``NOTES TO ... STATEMENTS (Continued)`` after ``NOTES
    TO ... STATEMENTS``). The run is one section, under its first heading.
    """
    out: list[Candidate] = []
    last: tuple[str, int, int] | None = None
    seen: list[str] = []
    for c in candidates:
        counted = _counted(c.title)
        stem = normalize_for_match(_CONTINUED.sub(" ", c.title)) if _CONTINUED.search(c.title) else None
        if (
            counted is not None
            and last is not None
            and counted[0] == last[0]
            and counted[2] == last[2]
            and counted[1] == last[1] + 1
        ) or (stem and any(stem.startswith(t) or t.startswith(stem) for t in seen)):
            for g in c.lines:
                g.role = "body"
            last = counted
            continue
        out.append(c)
        last = counted
        seen.append(normalize_for_match(c.title))
    return out


def _page_text_faces(pages: list[list[PdfLine]], body: float, pitch: float) -> list[tuple[float, float]]:
    """Return, for every page, the body size and line pitch to judge its lines by.

    A page whose paragraphs (five lines of eight words or more, three in four
    of its long lines, not counting lines set smaller on a page set smaller
    than the document; code and contents entries left out) are set at one
    size at least 1.12 times the document's body size shows a document of its
    own (a sample application in a class's manual, a large-print appendix): at
    that size its lines are text, not headings a size above the text. The same
    holds the other way: where the document's body size comes from a long part
    set larger (exhibits filed behind a report, appendices in a larger face),
    the pages whose prose is set at most 1/1.1 of it judge their headings
    against their own text, so a bold line at their text's size still heads a
    section. A page with fewer long lines, all of them at the size of the
    nearest page that has a face of its own (the end of that sample's
    paragraph, a page of statements among the report's prose), takes that
    page's face. Every other page keeps the document's.
    """
    own: list[tuple[float, float] | None] = []
    sizes_of: list[set[float]] = []
    for lines in pages:
        long = [ln for ln in lines if _is_prose(ln)]
        sizes = Counter(round(ln.size * 2) / 2 for ln in long)
        sizes_of.append(set(sizes))
        size, n = sizes.most_common(1)[0] if sizes else (body, 0)
        # (on a page set smaller than the document, lines smaller still are its notes: a table's
        # footnotes under a report's prose do not outvote it)
        counted = [ln for ln in long if round(ln.size * 2) / 2 >= size] if size <= body / 1.1 else long
        if n < 5 or 4 * n < 3 * len(counted) or body / 1.1 < size < 1.12 * body:
            own.append(None)
            continue
        at_size = [ln for ln in long if round(ln.size * 2) / 2 == size]
        # the leading between neighbouring lines of that size, short ones too (a bibliography's
        # entries end in short lines: between its long lines alone the gaps are twice the leading)
        face_lines = [ln for ln in lines if ln.role == "body" and round(ln.size * 2) / 2 == size]
        gaps = [b.top - a.top for a, b in itertools.pairwise(face_lines) if 0 < b.top - a.top < 3 * size]
        leading = statistics.median(gaps) if gaps else size * 1.2
        own.append((statistics.median(ln.size for ln in at_size), leading))
    with_face = [i for i, f in enumerate(own) if f is not None]
    faces: list[tuple[float, float]] = []
    for i, face in enumerate(own):
        if face is None and len(sizes_of[i]) == 1 and with_face:
            nearest = own[min(with_face, key=lambda j: (abs(j - i), j > i))]
            assert nearest is not None
            if round(nearest[0] * 2) / 2 in sizes_of[i]:
                face = nearest
        faces.append(face or (body, pitch))
    return faces


def _is_prose(ln: PdfLine) -> bool:
    """Tell whether a line is a long line of prose: eight words or more, not code, no contents entry.

    Words are counted as :func:`word_count` counts them (a line of Chinese is
    a few spaced tokens), of those with a letter.
    """
    if ln.role != "body" or word_count(ln.text) < 8:
        return False  # (fewer words with their symbols than it needs without them)
    words = [w for w in ln.text.split() if w[0].isalpha() or any(ch.isalpha() for ch in w)]
    return word_count(" ".join(words)) >= 8 and not CODE_FONT.search(ln.font) and not is_toc_line(ln.text)


def _is_margin_heading(ln: PdfLine) -> bool:
    """Tell whether a line of a margin-heading face reads as a title (no list mark, caption or sentence)."""
    text = ln.text
    return (
        ln.role == "body"
        and text[:1] not in _BULLETS
        and not _CAPTION.match(text)
        and not _DATE.match(text)
        and not looks_like_sentence(text, max_words=18)
    )


# the caption words of English, French, German, Spanish, Italian and Portuguese documents
_TABLE_WORDS = "Table|Tableau|Tabelle|Tabla|Tabella|Tabela"
# "Table 4.2. ", "Figure 3: ", "Fig. A-1 ", "Table 5.1—Format" (a dash for the stop, as Word sets it)
_CAPTION_NUMBER = r"\s+[\dA-Z][\d.\-]*(?:[:.]?\s|\s?[\u2013\u2014]\s?)"
_CAPTION = re.compile(
    rf"^(?:{_TABLE_WORDS}|Figure|Fig\.|Listing|Algorithm|Exhibit|Chart|Plate|Illustration|Drawing"
    rf"|Abbildung|Abb\.|Figura){_CAPTION_NUMBER}",
    re.I,
)
_TABLE_CAPTION = re.compile(rf"^(?:{_TABLE_WORDS}){_CAPTION_NUMBER}", re.I)
# the title of a numbered example or procedure, numbered within its chapter ("Example 6.1.
# Sample Multi-split.csv", "Procedure 11.2. On macOS", "Example 3-4"): a caption, not a section
_FORMAL_TITLE = re.compile(
    r"^(?:Example|Exemple|Beispiel|Ejemplo|Esempio|Exemplo|Procedure|Proc\u00e9dure|Prozedur|Procedimiento)"
    r"\s+[A-Z\d]{1,3}[.\-]\d{1,3}[.:]?\s",
    re.I,
)
# a box title, with its own number or without: "Warning 3 - Keys" (or a dash), "Remarque 2 : Structure",
# "Tip 4. Undo", numbered within its chapter or appendix as "Avertissement 2.1 - Format" or "Remarque
# F.1 - ...", or "Remarque - Section" (with any dash)
_BOX_TITLE = re.compile(
    rf"^(?:{'|'.join(sorted(NUMBERED_BOX_WORDS))})(?:\s+(?:\d{{1,3}}|[A-Z])(?:\.\d{{1,3}}){{0,2}})?\s*[\u2013\u2014:.-]\s",
    re.I,
)
# a paper's key words run into their list ("Index Terms—statistics", "Keywords: software")
_KEYWORDS = re.compile(r"^(?:key\s*words?|index\s+terms)\s*[\u2014\u2013:.-]", re.I)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_DATE = re.compile(
    rf"^(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\s+\d{{4}}|(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|(?:{_MONTHS})\s+\d{{4}}|\d{{4}}[-/]\d{{1,2}}[-/]\d{{1,2}}|\d{{1,2}}[-/.]\d{{1,2}}[-/.]\d{{2,4}})$",
    re.IGNORECASE,
)


# a release's version, "v" or "Version" before it, and its ISO date: "v3.0.0 (2022-11-22)", "1.2 - 2021-05-01"
_VERSION = r"\d+(?:\.\d+){1,3}(?:[-.]?(?:alpha|beta|rc)\d*)?"
_ISO_DATE = r"\s*[-\u2013\u2014]?\s*[(\[]?\d{4}-\d{2}-\d{2}[)\]]?"
_RELEASE = re.compile(rf"^(?:(?:v|version\s+){_VERSION}(?:{_ISO_DATE})?|{_VERSION}{_ISO_DATE})$", re.I)
_PAGE_AFTER_WORDS = re.compile(r"[^\W\d]{2,}\s+\d{1,4}$")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
_NON_WORD = re.compile(r"[^\w\s]")  # no letter, digit, underscore or space: where symbols are


def _code_scale(pages: list[list[PdfLine]], body: float) -> float:
    """How much smaller than the text the document sets its code: listings' size over the body's.

    Producers that scale code (Typst's 0.8 em) scale it in headings too; a heading made of
    code is ranked at its size over this scale. At most 1, and 1 without listings.
    """
    sizes = Counter(ln.size for lines in pages for ln in lines if not ln.bold and CODE_FONT.search(ln.font))
    if not sizes or not body:
        return 1.0
    return min(1.0, max(0.6, sizes.most_common(1)[0][0] / body))


def _is_mathy(text: str, share: float = 0.5) -> bool:
    """Tell formula fragments: private-use glyphs, or few letters (under ``share``) among symbols.

    Two math symbols make a formula among a few letters (``x + y = z``), not
    in a title of words (``C/C++ header dependencies``).
    """
    if _PRIVATE_USE.search(text):
        return True
    visible = "".join(text.split())
    letters = sum(map(str.isalpha, visible))
    symbols = sum(1 for ch in _NON_WORD.findall(visible) if unicodedata.category(ch) == "Sm")
    return (symbols >= 2 and 5 * symbols > letters) or letters < share * len(visible)


def _staggered(ln: PdfLine, by_row: dict[int, list[PdfLine]]) -> list[PdfLine]:
    """Return the pieces of the rows above and below that stand beside ``ln``, level with it.

    A table's header cells are set at staggered heights when one of them
    wraps (``Vesting Date`` beside ``Percentage`` over ``of SAs``), so that
    the row detection puts them in neighbouring rows; they still share the
    height of ``ln`` for a good part of its line and stand apart from it across.
    """
    out = []
    for row in (ln.row - 1, ln.row + 1):
        for o in by_row.get(row, ()):
            apart = o.x1 <= ln.x0 or o.x0 >= ln.x1
            overlap = min(o.bottom, ln.bottom) - max(o.top, ln.top)
            if apart and overlap >= 0.3 * min(o.bottom - o.top, ln.bottom - ln.top):
                out.append(o)
    return out


def _is_figure(text: str) -> bool:
    """Tell a figure of a table (``1,279``, ``$ 14,645 $``, ``(2)%``): digits and no letters."""
    return any(ch.isdigit() for ch in text) and not any(ch.isalpha() for ch in text)


def _cell_beside(ln: PdfLine, other: PdfLine) -> bool:
    """Tell whether ``other``, in the same row as ``ln``, makes it a table row: a bold cell or a figure."""
    if other.role in ("furniture", "toc"):
        return False
    if not any(ch.isalpha() for ch in other.text):
        return _is_figure(other.text)
    same_style = other.bold == ln.bold and abs(other.size - ln.size) < 0.6
    return same_style and ln.bold and len(other.text.split()) <= 6


def _after_text(ln: PdfLine, by_row: dict[int, list[PdfLine]], columns: set[int]) -> bool:
    """Tell whether ``ln`` goes on with a line of text that a piece before it in its row starts."""
    return any(_continues_text(ln, o, columns) for o in by_row[ln.row] if o is not ln)


def _continues_text(ln: PdfLine, other: PdfLine, columns: set[int]) -> bool:
    """Tell whether ``other`` is the start of the line of text that ``ln`` goes on with in another face.

    A heading does not stand to the right of words of the text on its own
    line: ``[9] American Mathematical Society.`` followed by an italic title is
    one line of a reference. A label (``Item 2.``, ``Chapter 3``) or a bold
    piece before ``ln`` may belong to a heading, and a piece in another
    column of prose is another line.
    """
    return (
        other.role not in ("furniture", "toc")
        and other.x1 <= ln.x0 < other.x1 + 3 * ln.size
        and not other.bold
        and abs(other.size - ln.size) < 0.6
        and len(other.text.split()) >= 2
        and any(ch.islower() for ch in other.text)
        and not numbering_order(other.text)[1]
        # (a column of prose starts between them, ``ln`` at it or indented from it)
        and not any(other.x1 < 3 * k <= ln.x0 + 2 * ln.size for k in columns)
    )


# an amount, never a section number: a thousands separator ("2,073", "$1,174") or a negative
# figure of three digits or more in parentheses ("(139)")
_AMOUNT = re.compile(
    r"^(?:\(?[$\u20ac\u00a3\u00a5]?\s?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?|\(\d{3,}(?:\.\d+)?\))(?:\s|$)"
)
_PARENTHESISED = re.compile(r"^\([^()]*\)$")
_SIGNED = re.compile(r"^(?:By:?\s*)?/s/", re.IGNORECASE)  # a conformed signature: "By: /s/ Jane Doe"
_BARE_PAGE = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$")


def _has_page_piece(ln: PdfLine, lines: list[PdfLine], numbered_rows: set[int]) -> bool:
    """Tell whether a bare page number stands to the right of ``ln`` in its row."""
    if ln.row not in numbered_rows:
        return False
    return any(o.row == ln.row and o.x0 > ln.x1 and _BARE_PAGE.match(o.text) for o in lines)


_ENDS_WITH_NUMBER = re.compile(r"\S\s+\d{1,4}$")


def _ends_with_page_ref(text: str) -> bool:
    return _ENDS_WITH_NUMBER.search(text) is not None and classify(text) is not None


_SECTION_NUMBER = re.compile(r"^(?:\d+|[A-Za-z])(?:\.\d+)+\.?\s+\S|^\d+\.?\s+\S")
_BULLETS = "\u2022\u25e6\u25aa\u25ab\u25a0\u25a1\u25cf\u25cb\u2023\u2043\u2219\u2666\u27a2\uf0b7\uf0a7"
_LETTERED = re.compile(r"^(?:Appendix\s+)?[A-Z](?:[.:]|\s+[A-Z])", re.I)
_CITATION = re.compile(r"^\[\d{1,3}\]\s")
# a function's signature: a type of C's or of code (``::``, ``<>``, ``*``), its name and its
# parameters ("int checkfn(void *parent)", "static const char *name(void)")
_SIGNATURE = re.compile(
    r"^(?=.*(?:\b(?:void|int|char|long|short|float|double|unsigned|signed|const|static|struct|bool|size_t)\b"
    r"|::|<|\*|&))(?:[A-Za-z_][\w:<>]*[\s*&]+){1,3}[A-Za-z_]\w*\([^()]*\)\s*;?$"
)
_QUOTES = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e"

_STRONG_PREFIXES = (
    "PART", "Part", "ITEM", "Item", "CHAPTER", "Chapter",
    "APPENDIX", "Appendix", "ARTICLE", "Article", "ANNEX", "Annex",
)  # fmt: skip


# numbering kinds whose label word says what the line is (a part, an item, a note ...)
_LABEL_KINDS = ("part", "item", "note", "chapter", "appendix", "article")
_SECTION_LABEL = re.compile(r"\d{1,3}(?:\.\d{1,3})*\.?")


def _plain_face(ln: PdfLine, body: float) -> bool:
    """Tell a line upright and regular at the text's size, in mixed case: the text's own face."""
    return (
        not ln.bold
        and not ln.italic
        and 0.92 * body <= ln.size < 1.12 * body
        and any(c.islower() for c in ln.text)
    )


def _plain_label(ln: PdfLine, body: float, style: HeadingStyle) -> bool:
    """Tell a labelled line in the text's own face whose words do not read as a labelled title.

    Such a line is a sentence that opens on a label word ("Appendix A describes
    the options.") where it ends in a full stop or runs on into the next line.
    """
    return _plain_face(ln, body) and not reads_as_labelled_title(style)


def _plain_text(
    ln: PdfLine, body: float, light: set[tuple[float, str]] | None, caseless: set[Style] | None
) -> bool:
    """Tell a line that :func:`_is_heading_line` turns down as plain body text whatever its neighbours.

    Upright, regular, at the text's size, with a lower-case letter, no
    sub-section number, in a face that is neither light-heading, caseless
    heading nor small capitals, and without a strong opening word.
    """
    text = ln.text
    return (
        _plain_face(ln, body)
        and not (caseless and style_of(ln) in caseless)
        and not (light and (round(ln.size * 2) / 2, ln.font) in light)
        and SMALL_CAPS_FONT.search(ln.font) is None
        and _SUBSECTION_NUMBER.match(text) is None
        and not text.startswith(_STRONG_PREFIXES)
    )


def _is_heading_line(
    ln: PdfLine,
    prev: PdfLine | None,
    nxt: PdfLine | None,
    body: float,
    pitch: float,
    light: set[tuple[float, str]] | None = None,
    small: set[Style] | None = None,
    caseless: set[Style] | None = None,
    family: str | None = None,
    column_foot: bool = False,
    wraps: bool = False,
    set_off: bool = False,
) -> bool:
    if _plain_text(ln, body, light, caseless):
        return False  # (the test below for plain body text, made first on what most lines are)
    # a small-capitals face ("TeXPalladioL-SC", "cmcsc10") shows its lower-case letters as capitals;
    # read so only behind a section number ("2.1 a new section"): an unnumbered line in small
    # capitals is as often a name (a speaker in a play, an author) as a heading
    small_caps = SMALL_CAPS_FONT.search(ln.font) is not None and _SECTION_NUMBER.match(ln.text) is not None
    # (a face that sets every heading in small capitals or in lower case reads as capitals)
    if caseless is not None and style_of(ln) in caseless and caseless_line(ln):
        if _PAGE_AFTER_WORDS.search(ln.text):
            return False  # "usage 5": an entry of a contents in the heading face, not counted there either
        small_caps = True
    text = ln.text.upper() if small_caps else ln.text
    if ln.role != "body" or len(text) > 150:
        return False
    small_heading = small is not None and style_of(ln) in small
    # (a bold subsection number over the text's size is a heading naming code: "8.2 verbatim",
    # "7.4 $TEXMFDOTDIR", "1.1 About cleanthesis" with the name in the typewriter face)
    code_head = ln.bold and ln.size >= body + 0.5 and _SUBSECTION_NUMBER.match(text) is not None
    if CODE_FONT.search(ln.font) and ln.size < 1.3 * body and not small_heading and not code_head:
        return False  # a line of code in a typewriter face (".PDF_LINK intro", "-Tpdf/-mom")
    if (
        text.strip().rstrip(".:").lower() in ("appendix", "appendices")
        and nxt is not None
        and _LETTERED.match(nxt.text)
    ):
        return (
            False  # a bare "APPENDIX" over "A. Appendix information": a divider, the letters are the sections
        )
    if text[:1] == "(" and text[-1:] == ")" and len(text.split()) <= 3:
        return False  # "(GM)" in a displayed formula, "(Unaudited)" under a statement's title
    if text[:1] in _BULLETS or _CITATION.match(text):
        return False  # a list item, an entry of a bibliography ("[8] G. Dueck. Trilogie 2.1: ...")
    if text[:1] in _QUOTES or (text[:1] in "\u2014\u2013" and not ln.bold):
        return False  # a quotation or its attribution ("\u2014Dwarven saying."), not a title
    tokens = text.split()
    if len(tokens) > 1 and _SECTION_LABEL.fullmatch(tokens[0]):
        tokens = tokens[1:]  # the words of "7 How to help us" are a title's, its number aside
    # (a Chinese or Japanese character carries a word's worth of letters, about three: "第 1 节 简介"
    # is a title)
    if len(tokens) >= 3 and sum(map(letter_weight, tokens)) < 2.5 * len(tokens):
        return False  # glyph samples or symbols ("A B C D", "\u02cb \u02c8 \u02c9"), not a title
    # a section number a little larger than the text: in the text's own face ("1.1 Description of
    # the class" at 12 pt over 11 pt text, fonts that carry no name to tell a family by) a heading
    # when set off above and below; in a face of another family ("2.1 Template Styles" in 9.96 pt
    # Biolinum over 8.97 pt Libertine text, as ACM's journal formats set them) always
    larger_number = (
        ln.size >= 1.05 * body
        and not CODE_FONT.search(ln.font)
        and _SUBSECTION_NUMBER.match(text) is not None
    )
    other_face = larger_number and family is not None and bool(ln.font) and font_family(ln.font) != family
    gap_above = ln.top - prev.bottom if prev is not None else pitch * 3
    # (below the last line of a column the space is as open as at the foot of a page)
    gap_below = nxt.top - ln.bottom if nxt is not None and not column_foot else pitch * 3
    line_gap = max(pitch - ln.height, 0.5)
    # a section number in the text's own face and size (pracjourn's "2.2.1 Penalized least squares"
    # as a line of the text) heads a section where it stands apart from the text above and from a
    # line of text below; an entry of a list set so ("31.1 Certification of ..." between the other
    # exhibits of a filing) has numbered entries in its face for neighbours
    set_off_number = (
        not CODE_FONT.search(ln.font)
        and _SUBSECTION_NUMBER.match(text) is not None
        and gap_above > line_gap * 2.5
        and gap_below > line_gap * 2
        and nxt is not None
        and nxt.role == "body"
        and len(nxt.text.split()) >= 6
        and _SECTION_NUMBER.match(nxt.text) is None
        and not (prev is not None and prev.font == ln.font and _SECTION_NUMBER.match(prev.text))
    )
    # a recurring light face a tenth over the text (a word processor's third level, a filing's
    # "Revenue Summary") heads what follows where it stands clear above a paragraph of the text
    light_face = light is not None and (round(ln.size * 2) / 2, ln.font) in light
    light_band = (
        light_face
        and 1.08 * body <= ln.size < 1.12 * body
        and gap_above > line_gap * 2
        and nxt is not None
        and nxt.role == "body"
        and abs(nxt.size - body) < 0.6
        and len(nxt.text.split()) >= 6
        and (prev is None or round(prev.size * 2) != round(ln.size * 2) or prev.font != ln.font)
    )
    if (
        not ln.bold
        and not ln.italic
        and 0.92 * body <= ln.size < 1.12 * body
        and not text.startswith(_STRONG_PREFIXES)
        and any(c.islower() for c in text)
        and not other_face
        and not larger_number
        and not set_off_number
        and not light_band
    ):
        return False  # plain body text: only all-caps, italic or labelled lines can be headings
    if is_toc_line(text):
        return False
    words = text.split()
    if word_count(text) > 18:
        return False
    style = classify(text)
    numbered = style is not None and style.kind not in ("caps", "alpha")
    if ln.lead and not text[:1].isdigit():
        return False  # the end of a run-in head that wrapped (no number): heading with its first line only
    letters = sum(map(str.isalpha, text))
    index_letter = len(text) == 1 and "A" <= text <= "Z" and (ln.bold or ln.size >= 1.12 * body)
    # a chapter's number set large over its title ("1" over "INTRODUCTION"); kept only when merged
    display_number = letters == 0 and _bare_number(text) is not None and ln.size >= 1.4 * body
    # a release of a change log ("v3.0.0 (2022-11-22)") set larger than the text is a title, not a formula
    release = ln.size >= 1.12 * body and _RELEASE.match(text) is not None
    if (
        letters < 2
        and not index_letter
        and not display_number
        and not release
        and not (numbered and style is not None and style.depth >= 2)
    ):
        return False
    rest = style.rest if numbered and style is not None else text
    if numbered and style is not None and rest and not any(ch.isalnum() for ch in rest):
        return False  # "Appendix*", "Chapter 3 -": a label with punctuation for a title
    if numbered and style is not None and style.kind in ("num", "alnum") and not rest:
        return False
    # (a section number is no formula: "7.1.1.3 SHA3-512" is judged by its title, and vouches for it)
    mathy = _is_mathy(rest, 0.3) if numbered and rest else _is_mathy(text)
    if _CAPTION.match(text) or _FORMAL_TITLE.match(text) or _DATE.match(text) or _KEYWORDS.match(text):
        return False
    if letters >= 2 and mathy and not release:
        return False
    if (
        numbered
        and style is not None
        and style.kind in LABEL_WORD_KINDS
        and rest.endswith(".")
        and _plain_label(ln, body, style)
    ):
        return False  # "Appendix A describes the options." in the text's own face: a sentence
    if numbered and style is not None and style.kind in ("num", "alnum") and len(rest.split()) > 8:
        check = rest.rstrip("?!:")  # "1. Determine whether any printers use the backends." is a step
    elif numbered:
        check = rest.rstrip("?!:.\uff1f\uff01\uff1a")  # "1.1 Changelog:", "2.3 Is it a class?"
    elif ln.lead:
        check = rest.rstrip(".:")  # "1) Penalized least squares:" runs into its paragraph at its colon
    elif rest[-1:] in ("?", "!", "\uff1f", "\uff01") and len(words) <= 10:
        check = rest.rstrip("?!\uff1f\uff01")  # (and the full-width marks)
    else:
        check = rest
    # a display title that wraps after a comma onto a line of its own face goes on there, and so
    # does a labelled title of a few lines ("A. Constant Partying ctree Parties, Models," / "Mobsters")
    # (or a bold title of a few lines that stands apart as titles do, with no label)
    labelled_wrap = wraps and (_STOPPED_NUMBER.match(text) is not None or set_off)
    wraps_on = labelled_wrap or (
        check.endswith(",")
        and ln.size >= 1.4 * body
        and nxt is not None
        and nxt.font == ln.font
        and abs(nxt.size - ln.size) < 0.3
        and 0 <= nxt.top - ln.bottom < 0.6 * ln.size
    )
    # (a heading in a typewriter heading face is an identifier, "event.bubbles", not a sentence; a
    # numbered head run into its paragraph may open on a name in lower case, IEEE's "2) zoo:")
    if (
        check
        and not wraps_on
        and not (small_heading and CODE_FONT.search(ln.font))
        and looks_like_sentence(check, max_words=18, allow_lower=numbered or ln.lead)
        and not (check.endswith(".") and len(check.split()) <= (6 if numbered else 4))
        and not (numbered and style is not None and reads_as_labelled_title(style))
        and reference_name(text) is None  # a name and what it is ("DBShowErrors\u2014Set the ... mode.")
        and not _SIGNATURE.match(text)  # a function's signature over its description
    ):
        return False
    if check and check[-1] in ":," and ln.size < body * 1.3 and not labelled_wrap:
        return False
    if ln.lead:
        return True  # a numbered head in bold or italics run into its paragraph ("9.3. Dots. Normally ...")
    ratio = ln.size / body if body else 1.0
    if ratio < 1.5 and (text.lower().rstrip(":.") in ADMONITIONS or _BOX_TITLE.match(text)):
        return False  # a "Note" or "Warning 3 - ..." box title; a chapter-sized "Notes" stays a heading
    # the first line of a page's right-hand column is set off from the left column's last line
    spaced = gap_above > line_gap * 1.6 or prev is None or prev.row == ln.row or ln.column_top
    # a numbered heading set tight under its parent's heading in its bold face, its number inside
    # the parent's ("A.1 Part One" under "A RESEARCH METHODS", both bold at the text size), is set
    # off by that heading
    spaced = spaced or (
        numbered
        and style is not None
        and ln.bold
        and prev is not None
        and prev.role == "heading"
        and prev.bold
        and abs(prev.size - ln.size) < 0.6
        and _inside_number(style.label, prev.text)
    )
    # a numbered line in capitals has no descenders and its box is short: the space above it,
    # from the descenders of the line above to its capitals' tops, reads small against a leading
    # less its own height (IEEE's "II. RELATED WORK", 8 pt under the line above where its leading
    # leaves 5 pt); where both the tops and the feet of the two lines stand more than 1.2 leadings
    # apart, the line is set off above all the same
    spaced = spaced or (
        numbered
        and prev is not None
        and abs(prev.size - ln.size) < 0.6
        and min(ln.top - prev.top, ln.bottom - prev.bottom) > 1.2 * pitch
    )
    light_heading = light_face and spaced
    if ratio >= 1.12 or (light_band and spaced):
        if ratio < 1.3 and not (ln.bold or ln.italic) and not numbered and not light_heading:
            return False
        # a larger line that continues into body text of the same size is not a heading
        return not (
            nxt is not None and abs(nxt.size - ln.size) < 0.3 and not nxt.bold and gap_below < line_gap
        )
    caps = style is not None and style.kind == "caps"
    # (a small heading face is at least 0.75 of the body by its definition)
    # (an italic line numbered with a full stop a size below the text is a heading too: REVTeX's
    # "1. Title"; a listing's numbered lines, "3 % comment", have no stop)
    small_italic = ln.italic and numbered and _STOPPED_NUMBER.match(text) is not None
    small_face = ln.bold or small_italic
    # (a labelled title in bold or italics that wraps over its text may be a size below it:
    # REVTeX's "A. Econometric Computing with HC and HAC" / "Covariance Matrix")
    if ratio < 0.92 and not (
        (small_face or labelled_wrap)
        and (small_heading or (ratio >= 0.8 and (numbered or caps or labelled_wrap)))
    ):
        return False
    if ln.bold:
        # (a run-in head that wraps goes on in its bold on the next line, up to its paragraph there)
        bold_paragraph = (
            nxt is not None
            and nxt.bold
            and not nxt.lead
            and abs(nxt.size - ln.size) < 0.3
            and gap_below < line_gap * 1.6
            and not _PARENTHESISED.match(nxt.text)  # (a title over its note: "(In millions)")
        )
        # a stack of short bold labels over one description ("Cyan Gamma Value", "Red Gamma Value")
        stacked = (
            nxt is not None
            and nxt.row != ln.row
            and nxt.font == ln.font
            and len(words) <= 5
            and len(nxt.text.split()) <= 5
        )
        # (a bold paragraph, unless this line is numbered and short, or a filing's long item title
        # wrapping in bold: "Item 5.02 Departure of Directors or ...")
        if (
            bold_paragraph
            and not stacked
            and not labelled_wrap
            and (not numbered or len(words) > 10)
            and not (numbered and style is not None and reads_as_labelled_title(style))
        ):
            return False
        return spaced and (numbered or labelled_wrap or gap_below > line_gap * 1.3 or len(words) <= 8)
    if ln.italic and (ratio >= 0.92 or small_italic) and not is_all_caps(text):
        # an italic run-in line at body size ("Cash Flows", "Note 2. Revenue Recognition"):
        # short, set apart above, and followed by upright text, not by more italics
        upright_next = nxt is not None and nxt.row != ln.row and (nxt.lead or not (nxt.italic or nxt.bold))
        return spaced and ((upright_next and len(words) <= 10) or labelled_wrap)
    # (a lettered line in capitals, "A. APPENDIX INFORMATION", reads as capitals too)
    capitals = style is not None and (
        style.kind == "caps" or (style.kind == "alpha" and is_all_caps(style.rest))
    )
    if capitals and spaced and gap_below > line_gap * 1.3:
        # a capitals line at body size heads a paragraph; over a caption or more short lines it is
        # display type (a sample title page, the label inside a framed figure)
        leads_text = nxt is not None and len(nxt.text.split()) >= 8 and not _CAPTION.match(nxt.text)
        # or it heads its own first sub-section, numbered inside its number ("A RESEARCH METHODS"
        # over "A.1 Part One", as ACM's formats set an appendix)
        nxt_style = classify(nxt.text) if nxt is not None else None
        heads_own = (
            nxt_style is not None
            and nxt_style.kind in ("num", "alnum")
            and _inside_number(nxt_style.label, text)
        )
        # a book's usual front or back title ("ACKNOWLEDGMENTS", "CONTENTS") over whatever follows
        return len(words) <= 10 and (leads_text or heads_own or normalize_for_match(text) in BOOK_TITLES)
    if numbered and style is not None and style.kind in _LABEL_KINDS:
        titled = bool(style.rest) or (
            nxt is not None and (nxt.bold or nxt.size > ln.size + 0.5 or is_all_caps(nxt.text))
        )
        # a line in the text's own face that runs on into the next, set tight below it in its face,
        # opens a paragraph ("Appendix B Description of the driver file (counterpart" / "for ...)"),
        # unless its words read as a labelled title wrapping ("Item 2. Management's Discussion ...")
        runs_on = (
            nxt is not None
            and nxt.font == ln.font
            and abs(nxt.size - ln.size) < 0.3
            and gap_below < line_gap * 1.3
            and _plain_label(ln, body, style)
        )
        # (a plain "Item 1" in a figure is a label)
        return spaced and len(words) <= 12 and titled and not runs_on
    # "1.1 STOCK PAPER SIZE OPTIONS" in small capitals
    return (
        numbered
        and spaced
        and bool(rest)
        # (set apart below, or well apart above: Word's headings keep their space before them)
        and (
            is_all_caps(rest)
            or other_face
            or set_off_number
            or (larger_number and (gap_below > line_gap * 1.3 or gap_above > line_gap * 2.5))
        )
        and len(words) <= 12
    )
