"""Filtering heading candidates against each other and ranking them into levels."""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable

from sectionrag.parsers._pdf_contents import apply_contents
from sectionrag.parsers._pdf_headings import ORDER, Candidate, label_key, numbering_order
from sectionrag.parsers._pdf_members import nest_members
from sectionrag.parsers._pdf_title import FRONT_KEEP, split_title
from sectionrag.parsers._pdf_toc import CONTENTS_TITLES
from sectionrag.parsers._sections import Heading
from sectionrag.parsers.headings import (
    BOOK_TITLES,
    HeadingStyle,
    classify,
    is_all_caps,
    normalize_for_match,
    reference_name,
)

__all__ = ["apply_contents", "rank_headings", "split_title"]


def _top_number(style: HeadingStyle | None) -> int | None:
    """Return the chapter-level number of a heading's style (``Chapter 3`` and ``3.2.1`` give 3)."""
    if style is None:
        return None
    if style.kind == "chapter":
        number = style.label.split()[-1]
        return int(number) if number.isdigit() else None
    if style.kind == "num":
        return int(style.label.split(".")[0])
    return None


def _counted_number(style: HeadingStyle | None) -> int | None:
    """Return the number a heading counts at its top level (``3.2.1``, ``Chapter 3``, ``Section 3.``: 3)."""
    if style is not None and style.kind in ("section", "article", "part", "item"):
        digits = re.match(r"\d+", style.label.split()[-1])  # ("Section 3", "Item 1A": a word and a number)
        return int(digits.group()) if digits else None
    return _top_number(style)


_LABEL_WORDS = ("part", "chapter", "article", "item", "note", "section")


def _labels_nested_by_evidence(candidates: list[Candidate]) -> None:
    """Rank a label word below another where the document sets and numbers it so.

    Label words have a fixed precedence (an ``Article`` above a ``Section``,
    as contracts and constitutions order them); a sports rule book nests them
    the other way (``Section 1.`` over ``ARTICLE 1.`` and ``ARTICLE 2.``, then
    ``Section 2.``). Where every heading of the higher word is set smaller than
    every heading of the lower one, the lower word comes first, and the higher
    word's numbers start again under a heading of the lower one, the higher
    word takes the order just below the lower word's (when no heading holds it).
    """
    by_kind: dict[str, list[int]] = {}
    for i, c in enumerate(candidates):
        style = classify(c.title) if c.numbered else None
        if style is not None and style.kind in _LABEL_WORDS:
            by_kind.setdefault(style.kind, []).append(i)
    used = {c.order for c in candidates}
    for upper, ups in by_kind.items():
        for lower, lows in by_kind.items():
            below = candidates[lows[0]].order + 1
            if (
                upper == lower
                or candidates[ups[0]].order >= candidates[lows[0]].order
                or below in used
                or lows[0] > ups[0]
                or max(candidates[i].size for i in ups) + 0.5 > min(candidates[i].size for i in lows)
                or not _restarts_under(candidates, ups, lows)
            ):
                continue
            for i in ups:
                candidates[i].order = below
            used.add(below)


def _restarts_under(candidates: list[Candidate], ups: list[int], lows: list[int]) -> bool:
    """Tell whether the ``ups`` headings number from 1 again after a ``lows`` heading that follows one."""
    numbers = {i: _counted_number(classify(candidates[i].title)) for i in ups}
    lows_set = set(lows)
    last_up: int | None = None  # the number of the last heading of ``ups`` seen
    reset = False  # a heading of ``lows`` came after it
    for i in range(min(ups), max(ups) + 1):
        if i in lows_set and last_up is not None:
            reset = True
        elif i in numbers:
            if reset and numbers[i] == 1:
                return True
            last_up, reset = numbers[i], False
    return False


def _without_labels(
    candidates: list[Candidate], *, repeats: int = 4, body: float | None = None
) -> list[Candidate]:
    """Drop unnumbered body-sized headings whose title recurs ``repeats`` times or more.

    ``Rationale``, ``Convention``, ``Meaning`` or ``Recommended alternative``
    set over one box after another are labels, not sections; a numbered
    heading or a large one (``Introduction`` of each paper in proceedings)
    stays. So do the headings of a page template: three titles or more that
    each recur so in one face set well above the text's ``body`` size, where
    it is known (``Synopsis``, ``Description``, ``Return Value`` on each page
    of a command reference; one ``Example`` set large over each example is a
    label still).
    A title printed in the cells of ruled tables recurs there too
    (``Candidate.cell_repeats``): ``Dataset Result`` over a table without
    rules is the head of a table with them elsewhere.
    """
    counts = Counter(label_key(c.title) for c in candidates if not c.numbered)
    sizes = sorted(c.size for c in candidates)
    # the largest tenth of heading sizes, when headings come in more than one size
    large = sizes[int(0.9 * (len(sizes) - 1))] if sizes and sizes[0] != sizes[-1] else float("inf")
    recurring: dict[tuple[float, bool], set[str]] = {}
    for c in candidates:
        key = label_key(c.title)
        if not c.numbered and counts[key] >= repeats and body is not None and c.size >= _DISPLAY * body:
            recurring.setdefault(_face_of(c), set()).add(key)
    template = {face for face, titles in recurring.items() if len(titles) >= 3}
    return [
        c
        for c in candidates
        if c.numbered
        or c.toc_level is not None
        or counts[label_key(c.title)] + c.cell_repeats < repeats
        or c.size >= large
        or _face_of(c) in template
    ]


# a heading this many times the text's size is set for display, not run as a label over a box
_DISPLAY = 1.3


def _face_of(c: Candidate) -> tuple[float, bool]:
    return round(c.size * 2) / 2, c.bold


def _lettered_not_roman(candidates: list[Candidate]) -> None:
    """Read ``C.`` after ``B.`` as a letter, not the roman numeral 100 (appendices A, B, C, D)."""
    previous: str | None = None
    for c in candidates:
        label = c.title.split(".", 1)[0] if "." in c.title[:3] else ""
        if len(label) == 1 and label.isupper():
            if c.numbered and previous is not None and ord(label) == ord(previous) + 1:
                c.order, c.numbered = numbering_order(c.title.split(".", 1)[1].strip())  # ranks like "B."
            previous = label
        elif c.numbered:
            previous = None


def _without_letters(candidates: list[Candidate]) -> list[Candidate]:
    """Drop one-letter headings (an index's ``A``, ``B`` ...): they guide the eye, they head no section.

    Bookmarks mostly agree (Texinfo manuals, makeinfo's HTML and some LaTeX
    books list the index, not its letters); a letter the printed contents lists stays.
    """
    return [c for c in candidates if len(c.title) != 1 or c.toc_level is not None]


def _without_link_contents(candidates: list[Candidate]) -> list[Candidate]:
    """Drop a contents printed without page numbers: five headings or more on one page, set again later.

    A word processor's contents of links lists the headings in their own
    faces, one under another, with no page numbers to tell it by; when four in
    five of a page's headings are numbered and head sections of later pages
    too, the page is that contents, and its lines are no sections.
    """
    # (numbers kept: "2.3.1 General" and "3.3.1 General" are two sections, not one set twice)
    keys = [" ".join(c.title.casefold().split()) for c in candidates]
    last: dict[str, int] = {}
    for c, key in zip(candidates, keys, strict=True):
        last[key] = max(c.page, last.get(key, -1))
    on_page = Counter(c.page for c in candidates)
    # (numbered: "Options" or "Usage" heads a section of every chapter)
    set_again = Counter(
        c.page for c, key in zip(candidates, keys, strict=True) if last[key] > c.page and c.numbered
    )
    listing = {page for page, n in on_page.items() if n >= 5 and set_again[page] >= 0.8 * n}
    return [
        c for c, key in zip(candidates, keys, strict=True) if c.page not in listing or last[key] == c.page
    ]


def _next_number(numbers: list[int | None], positions: list[int], i: int) -> tuple[int | None, int]:
    """Return the chapter-level number of the next numbered heading after position ``i``, and where it is."""
    k = bisect.bisect_right(positions, i)
    return (numbers[positions[k]], positions[k]) if k < len(positions) else (None, -1)


_TRAILING_NUMBER = re.compile(r"^(?P<title>\D.*?)\s+(?P<number>\d{1,3})$")


def _in_sequence(candidates: list[Candidate]) -> list[Candidate]:
    """Drop numbered headings that break the chapter sequence or repeat an earlier one.

    Inside chapter 2, ``2.12 Text object methods`` belongs; ``14.5 points: ...``
    (a font-size specimen) and a sample ``Chapter 9`` do not. A heading that
    jumps ahead is kept when the next numbered heading confirms it (``8`` then
    ``8.1`` after a missed chapter 7), and a sub-heading when a neighbouring
    sub-heading shares its first number (``7.1`` then ``7.2``). A numbered
    heading seen before, again at the top of a page (``5. ABSTRACTS`` as a
    running head), is dropped; a heading that only its own copy follows (a
    specimen's ``1. Introduction`` shown twice in chapter 5) is not confirmed
    by it; and a chapter title set before its number
    (``Document divisions 6``) becomes ``6 Document divisions`` when ``6.1``
    follows.
    """
    styles = [classify(c.title) for c in candidates]
    numbers = [_top_number(style) for style in styles]
    deep = [style is not None and style.kind == "num" and style.depth >= 2 for style in styles]
    numbered_positions = [i for i, n in enumerate(numbers) if n is not None]
    around: dict[int, tuple[int | None, int | None]] = {}
    for k, i in enumerate(numbered_positions):
        before = numbers[numbered_positions[k - 1]] if k > 0 else None
        after = numbers[numbered_positions[k + 1]] if k + 1 < len(numbered_positions) else None
        # the same heading printed again (a specimen page shown twice) confirms nothing
        if after is not None and normalize_for_match(candidates[numbered_positions[k + 1]].title) == (
            normalize_for_match(candidates[i].title)
        ):
            after = None
        around[i] = (before, after)
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    tops_seen: set[int] = set()
    top: int | None = None
    top_face: tuple[float, bool] | None = None
    # a parent since the last numbered heading: a roman or lettered one ("B." after "2."), or an
    # unnumbered one set larger (a part's title, "Transactions" after "10.")
    parent_since = False

    def same_series(style: HeadingStyle | None, c: Candidate, i: int) -> bool:
        """Tell a heading whose next numbered heading repeats its first word after the number, in its face."""
        _, at = _next_number(numbers, numbered_positions, i)
        nxt = styles[at] if at >= 0 else None
        if style is None or nxt is None or _face_of(candidates[at]) != _face_of(c):
            return False
        words, next_words = style.rest.split(), nxt.rest.split()
        return bool(words) and bool(next_words) and words[0] == next_words[0]

    for i, c in enumerate(candidates):
        number = numbers[i]
        if number is None and not c.numbered:
            m = _TRAILING_NUMBER.match(c.title)
            expected = top + 1 if top is not None else 1  # the first chapter is chapter 1
            following, at = _next_number(numbers, numbered_positions, i)
            # (its own sub-section confirms it; the next chapter, "Chapter 2." after "... step 2", does not)
            if m and int(m.group("number")) == expected == following and deep[at]:
                c.title = f"{m.group('number')} {m.group('title')}"
                c.order, c.numbered = numbering_order(c.title)
                styles[i] = classify(c.title)
                number = expected
        elif number is not None and top is not None and number not in (top, top + 1) and c.toc_level is None:
            before, after = around[i]
            # the columns may put "7" before "6": the number after the highest one seen is in sequence,
            # and so is a jump ahead that the next numbered heading continues ("8" then "9"), both
            # only in the face of the numbered headings accepted so far (not a list, not a specimen)
            same_face = top_face is not None and _face_of(c) == top_face
            confirmed = (
                after == number
                # numbers restarted under the next parent heading (REVTeX's "B." then "1.")
                or (number == 1 and parent_since and not deep[i] and after == 2)
                # a series of its own: "1 API Section ..." then "2 API Section ..." in one face
                or (number == 1 and after == 2 and same_series(styles[i], c, i))
                or (deep[i] and before == number)
                or (same_face and number == max(tops_seen) + 1)
                or (same_face and number > top and after == number + 1)
                or (same_face and number == top + 2 and after == top + 1)  # "7" read before "6"
                or (same_face and number == top - 1 and number not in tops_seen)  # then "6"
            )
            if not confirmed:
                continue
        style = styles[i]
        if style is not None and c.numbered and style.label:
            key = (style.label.rstrip(".").lower(), normalize_for_match(c.title))
            if key in seen and c.index == 0 and c.toc_level is None:
                continue
            seen.add(key)
        if (style is not None and style.kind in ("roman", "alpha")) or (
            not c.numbered and top_face is not None and c.size > top_face[0] + 0.5
        ):
            parent_since = True
        if number is not None:
            if number == 1 and parent_since:
                tops_seen.clear()
            top = number
            tops_seen.add(number)
            top_face = _face_of(c)
            parent_since = False
        out.append(c)
    return out


def rank_headings(
    candidates: list[Candidate], line_offsets: dict[int, int], body: float | None = None
) -> list[Heading]:
    """Rank heading styles (size, weight) and numbering depth into nesting ranks.

    Headings found through the printed contents keep their contents level;
    the others rank below them, except a style that only contents entries of
    one level use (an ``Index`` set like the chapters the contents lists).
    ``body`` is the text's size, where known.
    """
    _lettered_not_roman(candidates)
    kept = _without_labels(_without_link_contents(candidates), body=body)
    candidates = _in_sequence(_without_letters(kept))
    if not candidates:
        return []
    _labels_nested_by_evidence(candidates)
    notes = _notes_under_their_heading(candidates)

    sizes = _script_sizes(candidates)

    def face_key(c: Candidate) -> tuple[float, bool, bool]:
        # a head run into its paragraph ranks just below a head of its face on a line of its own
        run_in = 0.25 if c.lines[0].lead else 0.0
        return (round(sizes.get(id(c), c.size) * 2) / 2 - run_in, c.bold, c.italic)

    # a face that sets unnumbered headings of two orders in two cases, the sections in capitals
    # and the sub-sections in lower case ("APPLIED ECONOMETRICS WITH R" over "Vegan", both bold at
    # the text's size), ranks its capitals a step above: two titles of words in capitals tell it
    # (not names such as "CD-HIT-PARA" among "Incremental clustering"); a face that numbers some
    # headings leaves their order to the numbers, and a script without case has no capitals
    cases: dict[tuple[float, bool, bool], Counter[str]] = {}
    for c in candidates:
        case = "numbered" if c.numbered else "caps" if is_all_caps(c.title) else "lower"
        tally = cases.setdefault(face_key(c), Counter())
        tally["words"] += case == "caps" and len(c.title.split()) >= 2
        tally[case] += case != "lower" or any(ch.islower() for ch in c.title)
    two_cases = {
        face for face, n in cases.items() if n["words"] >= 2 and n["lower"] >= 2 and not n["numbered"]
    }

    def style_key(c: Candidate) -> tuple[float, bool, bool]:
        face = face_key(c)
        if face in two_cases and not c.numbered and _caps_words(c.title):
            return (face[0] + 0.1, face[1], face[2])
        return face

    long_document = max(c.page for c in candidates) >= 40
    if len(candidates) >= 30 and long_document:  # one-off styles (specimens, posters) are not levels
        counts = Counter(style_key(c) for c in candidates)
        rare = max(2, len(candidates) // 100)
        first_entry = next((i for i, c in enumerate(candidates) if c.toc_level is not None), -1)
        candidates = [
            c
            for i, c in enumerate(candidates)
            if c.numbered or c.toc_level is not None or counts[style_key(c)] > rare or i < first_entry
        ]
        if not candidates:
            return []
    beside = _appendices_beside_chapters(candidates, style_key)
    styles = sorted({style_key(c) for c in candidates}, key=lambda s: (-s[0], not s[1], s[2]))
    style_rank = {s: i for i, s in enumerate(styles)}
    # unnumbered headings take the numbering order most common in their style
    common: dict[tuple[float, bool, bool], int] = {}
    for s in styles:
        orders = Counter(c.order for c in candidates if style_key(c) == s and c.numbered)
        if orders:
            common[s] = orders.most_common(1)[0][0]
    # in a face of several numbering orders, the order of each case (capitals or not) where it has one
    orders_by_case: dict[tuple[tuple[float, bool, bool], bool], set[int]] = {}
    orders_by_face: dict[tuple[float, bool, bool], set[int]] = {}
    for c in candidates:
        if c.numbered:
            face = style_key(c)
            orders_by_case.setdefault((face, _rest_in_capitals(c.title)), set()).add(c.order)
            orders_by_face.setdefault(face, set()).add(c.order)
    cased = {
        key: next(iter(o))
        for key, o in orders_by_case.items()
        if len(orders_by_face[key[0]]) > 1 and len(o) == 1
    }
    # Numbering decides the level of numbered headings ("1.2.1" is below "1.3" whatever its font);
    # an unnumbered style sits just below the nearest larger numbered style.
    numbered_styles = sorted(common, key=lambda s: style_rank[s])
    min_order = min(common.values(), default=5)

    def order_of(s: tuple[float, bool, bool]) -> float:
        if s in common:
            return common[s]
        above = [common[n] for n in numbered_styles if style_rank[n] < style_rank[s]]
        return max(above) + 0.5 if above else min_order - 0.5

    # numbered headings of one numbering order share a level whatever their look
    numbered_rank: dict[int, int] = {}
    span: dict[int, tuple[int, int]] = {}  # first and last position of each numbering order
    for i, c in enumerate(candidates):
        if c.numbered:
            rank = style_rank[style_key(c)]
            numbered_rank[c.order] = min(rank, numbered_rank.get(c.order, rank))
            if id(c) not in beside:  # (the back matter before the appendices is no section's inside)
                span[c.order] = (span.get(c.order, (i, i))[0], i)
    # unnumbered headings set like a numbering order's and found between its first and last heading;
    # when a face holds three or more of them (a deck's slide titles, set like its "Section 3"
    # pages), those after the last numbered one are inside it too (the last section's slides),
    # but for a book's usual back titles ("REFERENCES" after a paper's last section)
    inside: Counter[tuple[float, bool, bool]] = Counter(
        style_key(c)
        for i, c in enumerate(candidates)
        if not c.numbered
        and style_key(c) in common
        and common[style_key(c)] in span
        and span[common[style_key(c)]][0] < i < span[common[style_key(c)]][1]
    )

    def within(s: tuple[float, bool, bool], i: int) -> bool:
        if s not in common or common[s] not in span:
            return False
        first, last = span[common[s]]
        back = normalize_for_match(candidates[i].title) in BOOK_TITLES
        return first < i < last or (i > last and inside[s] >= 3 and not back)

    keys: list[tuple[float, int]] = []
    for i, c in enumerate(candidates):
        s = style_key(c)
        if c.numbered:
            keys.append((float(c.order), numbered_rank[c.order]))
        elif within(s, i):
            # set like "Item 2." and "Item 3." but between them, unnumbered: a heading inside the item
            keys.append((common[s] + 0.5, style_rank[s]))
        elif (order := cased.get((s, _rest_in_capitals(c.title)))) is not None:
            # a face that sets two numbering orders ("1 INTRODUCTION" and "2.1 Applied Econometrics"
            # in one bold): an unnumbered heading in capitals is level with the capitals' order
            # ("REFERENCES" after "6 CONCLUSION")
            keys.append((order, numbered_rank[order]))
        else:
            keys.append((order_of(s), style_rank[s]))
    # Between the first and the last top-level numbered heading, an unnumbered heading cannot
    # stand above them (a sample title page inside chapter 4 is not a parent of chapter 5),
    # unless the top numbering is itself a sub-level ("7.1" under an unnumbered "Integrals").
    tops: list[int] = []  # the top-level numbered headings, where the top numbering is a top level
    if numbered_rank and min(numbered_rank) <= ORDER["roman"] + 1:
        top_order = min(numbered_rank)
        tops = [i for i, c in enumerate(candidates) if c.numbered and c.order == top_order]
        _below_within(candidates, keys, tops, top_order, _restarting(candidates, tops))
    _between_siblings(candidates, keys)
    # notes to financial statements ("Note 1 - Revenue" ... "NOTE 9 - SEGMENTS") hold every heading
    # between the first and the last of them: an unnumbered heading there is a note's sub-heading,
    # even in a bolder face than the notes' own
    if notes:
        _below_within(candidates, keys, notes, candidates[notes[0]].order)
    # a front heading in a face of its own ("Abstract" in bold over sections in a lighter face)
    # stands beside the top-level sections, not above them
    style_counts = Counter(style_key(c) for c in candidates)
    for i, c in enumerate(candidates):
        others = [k for j, k in enumerate(keys) if j != i]
        if (
            others
            and not c.numbered
            and normalize_for_match(c.title) in FRONT_KEEP
            and style_counts[style_key(c)] == 1
            and keys[i] < min(others)
        ):
            keys[i] = min(others)
    _title_block_beside_top(candidates, keys, style_key, tops)
    _contained_styles(candidates, keys, style_key)
    # merge styles that numbering says are the same level (a numbered "2.1" in two sizes)
    ranked = sorted(set(keys))
    rank_of = {k: i + 1 for i, k in enumerate(ranked)}
    ranks = [rank_of[k] for k in keys]
    if any(c.toc_level is not None for c in candidates):
        ranks = _below_contents(candidates, ranks, [style_key(c) for c in candidates])
        _notes_below_listed_block(candidates, ranks, notes)
    ranks = nest_members([c.title for c in candidates], ranks)
    out = []
    for c, rank in zip(candidates, ranks, strict=True):
        # a reference entry's heading is titled by its name ("DBErrno\u2014Get internal error number.")
        out.append(Heading(line_offsets[id(c.lines[0])], rank, reference_name(c.title) or c.title))
    out.sort(key=lambda h: h.start)
    return out


def _title_block_beside_top(
    candidates: list[Candidate],
    keys: list[tuple[float, int]],
    style_key: Callable[[Candidate], tuple[float, bool, bool]],
    tops: list[int],
) -> None:
    """Rank a title block on pages of its own level with the top numbered headings (``tops``), not above them.

    A paper's or a report's first pages set its title, its authors, a
    subtitle and an abstract larger than its numbered sections (``1
    Introduction``), in two faces or more one above the other. Ranked by size
    they would hold the whole document two or three levels down. Where such
    lines stand only before the first top-level numbered heading, on earlier
    pages than it, in faces never used again, they are a title block, not
    parents: they stand level with the top numbering. A title on the page of
    the first section (a title over the body) and a face used again later (a
    part's title page) keep their rank.
    """
    if len(tops) < 2:
        return
    first = tops[0]
    later = {style_key(c) for c in candidates[first:]}
    top_key = min(keys[i] for i in tops)
    front = [i for i in range(first) if not candidates[i].numbered and keys[i] < top_key]
    if (
        len({keys[i] for i in front}) < 2
        or any(style_key(candidates[i]) in later for i in front)
        or any(candidates[i].page >= candidates[first].page for i in front)
    ):
        return
    for i in front:
        keys[i] = top_key


def _between_siblings(candidates: list[Candidate], keys: list[tuple[float, int]]) -> None:
    """Rank an unnumbered heading between two numbered siblings below them, never above the second.

    ``1.3 List of files`` continues ``1.2 Installation``: both are sections of
    chapter 1, so an unnumbered heading set between them in a larger face (a
    boxed note's ``Overleaf and MacOS users``) is no parent of ``1.3``; it
    ranks inside ``1.2``.
    """
    last: dict[str, tuple[int, int]] = {}  # a parent's number: position and number of its last sub-heading
    for i, c in enumerate(candidates):
        label = _decimal_label(c) if c.numbered else None
        if label is None or "." not in label:
            continue
        parent, _, tail = label.rpartition(".")
        if not tail.isdigit():
            continue
        before = last.get(parent)
        if before is not None and int(tail) == before[1] + 1:
            for j in range(before[0] + 1, i):
                if not candidates[j].numbered and keys[j][0] < keys[i][0]:
                    keys[j] = (keys[i][0] + 0.5, keys[j][1])
        last[parent] = (i, int(tail))


def _appendices_beside_chapters(
    candidates: list[Candidate], style_key: Callable[[Candidate], tuple[float, bool, bool]]
) -> set[int]:
    """Give appendices set in the face of the top decimal numbers that numbering order.

    ``Appendix A: Incomplete Zeta Function`` in the bold of ``8 Conclusions``
    is the next section, not a parent of the sections before it, nor of the
    unnumbered ``References`` after it. An appendix label ranks above a
    number only when its face does (``Appendix A`` in a chapter's size over
    ``1 Scope`` in a section's). Returns the ids of the appendices renumbered.
    """
    top = ORDER["roman"] + 1  # "1 Introduction"
    # (two numbered sections at least: one number may be a list's or a stray glyph's)
    faces = Counter(
        style_key(c) for c in candidates if c.numbered and c.order == top and _kind(c.title) == "num"
    )
    out: set[int] = set()
    for c in candidates:
        if (
            c.numbered
            and c.order == ORDER["appendix"]
            and _kind(c.title) == "appendix"
            and faces[style_key(c)] >= 2
        ):
            c.order = top
            out.add(id(c))
    return out


def _below_within(
    candidates: list[Candidate],
    keys: list[tuple[float, int]],
    span: list[int],
    order: int,
    parents: frozenset[int] = frozenset(),
) -> None:
    """Rank every unnumbered heading between ``span``'s first and last below numbering ``order``.

    The headings in ``parents`` keep their rank.
    """
    for i in range(span[0] + 1, span[-1]):
        if not candidates[i].numbered and keys[i][0] < order and i not in parents:
            keys[i] = (order + 0.5, keys[i][1])


def _restarting(candidates: list[Candidate], tops: list[int]) -> frozenset[int]:
    """Unnumbered headings larger than the top numbered ones, after which their numbers start again.

    A manual of several parts numbers each part's sections from 1 under the
    part's unnumbered title (``Transactions``, then ``1. Overview``): that title
    is their parent, not a heading inside the previous part's last section.
    """
    numbers = {i: _counted_number(classify(candidates[i].title)) for i in tops}

    def key(c: Candidate) -> str:
        return " ".join(c.title.casefold().split())

    # (a title set again and again is furniture: a company's name on its blank pages)
    seen = Counter(key(c) for c in candidates)
    out: set[int] = set()
    for before, after in itertools.pairwise(tops):
        b, a = numbers[before], numbers[after]
        if b is None or a is None or a >= b:
            continue
        size = max(candidates[before].size, candidates[after].size)
        out.update(
            i
            for i in range(before + 1, after)
            if not candidates[i].numbered
            and candidates[i].size > size + 0.5
            and seen[key(candidates[i])] == 1
        )
    return frozenset(out)


def _notes_block(candidates: list[Candidate], notes: list[int]) -> Candidate | None:
    """Return the unnumbered heading just before the first note that names the notes' block, if any."""
    if not notes or notes[0] == 0:
        return None
    block = candidates[notes[0] - 1]
    return block if normalize_for_match(block.title).startswith("notes ") else None


def _notes_under_their_heading(candidates: list[Candidate]) -> list[int]:
    """Return the positions of a run of notes to financial statements, set under their block's heading.

    Three notes or more (``Note 1 - Revenue``, ``NOTE 7 - GOODWILL``) number the
    sections of a filing's financial statements. When the heading just before
    the first of them names the block (``Notes to Consolidated Financial
    Statements``), that heading takes the notes' numbering order and the notes
    the next one, so they nest under it wherever its face ranks it.
    """
    notes = [i for i, c in enumerate(candidates) if c.numbered and _kind(c.title) == "note"]
    if len(notes) < 3:
        return []
    block = _notes_block(candidates, notes)
    # (a block the printed contents lists has its level from there)
    if block is not None and not block.numbered and block.toc_level is None:
        block.order, block.numbered = ORDER["note"], True
        for i in notes:
            candidates[i].order = ORDER["note"] + 1
    return notes


def _notes_below_listed_block(candidates: list[Candidate], ranks: list[int], notes: list[int]) -> None:
    """Nest the notes one level below their block's heading when the printed contents places it.

    The contents gives ``Notes to Condensed Consolidated Financial Statements``
    its level; the notes, which it does not list, can come out level with it.
    They and the headings inside them (deeper than the notes, up to the next
    heading at the notes' level or above) move down by the difference.
    """
    block = _notes_block(candidates, notes)
    if block is None or block.toc_level is None:
        return
    level = ranks[notes[0]]
    shift = ranks[notes[0] - 1] + 1 - level
    if shift <= 0:
        return
    i = notes[0]
    while i < len(ranks) and (i <= notes[-1] or ranks[i] > level):
        if ranks[i] >= level:
            ranks[i] += shift
        i += 1


def _kind(title: str) -> str | None:
    """Return the kind of a title's numbering (``note``, ``item`` ...), or ``None``."""
    style = classify(title)
    return style.kind if style is not None else None


def _script(title: str) -> str | None:
    """Return the script most of a title's letters are in (``LATIN``, ``DEVANAGARI``, ``CJK`` ...)."""
    counts: Counter[str] = Counter()
    for ch in title:
        if ch.isalpha():
            counts[unicodedata.name(ch, "?").split(" ", 1)[0]] += 1
    return counts.most_common(1)[0][0] if counts else None


def _script_sizes(candidates: list[Candidate]) -> dict[int, float]:
    """Return the size to rank by of headings set in another script than the document's.

    A font for another script is drawn at a scale of its own: a paper's
    abstracts in 25 languages set in one heading face come out at 9.1 pt in
    Latin, 9.2 pt in Cyrillic and 9.8 pt in Devanagari. A heading in another
    script than the document's main one ranks at the size of the nearest style
    of the same weight used by headings in the main script, when that size is
    within a tenth of its own; every other heading keeps its size.
    """
    scripts = {id(c): _script(c.title) for c in candidates}
    main = Counter(v for v in scripts.values() if v is not None).most_common(1)
    if not main:
        return {}
    home = main[0][0]
    out: dict[int, float] = {}
    for c in candidates:
        script = scripts[id(c)]
        if script is None or script == home:
            continue
        near = [
            o.size
            for o in candidates
            if scripts[id(o)] == home
            and o.bold == c.bold
            and o.italic == c.italic
            and abs(o.size - c.size) <= 0.1 * c.size
        ]
        if near:
            out[id(c)] = min(near, key=lambda z: abs(z - c.size))
    return out


def _contained_styles(
    candidates: list[Candidate],
    keys: list[tuple[float, int]],
    style_key: Callable[[Candidate], tuple[float, bool, bool]],
) -> None:
    """Rank a style found only inside one section of a lesser style at the level below that one.

    A change log may set its releases (``v3.0.0 (2022-11-22)``) larger than the
    section headings, yet they all sit between one section heading
    (``changelog``) and the next: they are that section's sub-headings, at the
    level that sub-headings take elsewhere. Unnumbered styles of two headings
    or more only; the section's style must have three headings or more.
    """
    positions: dict[tuple[float, bool, bool], list[int]] = {}
    for i, c in enumerate(candidates):
        positions.setdefault(style_key(c), []).append(i)
    for inner, spots in positions.items():
        if len(spots) < 2 or any(candidates[i].numbered for i in spots):
            continue
        for outer, tops in positions.items():
            if outer == inner or len(tops) < 3 or keys[tops[0]] <= keys[spots[0]]:
                continue
            k = bisect.bisect_left(tops, spots[0])
            if k == 0 or k == len(tops) or tops[k] < spots[-1]:
                continue  # not all after one heading of the outer style and before its next
            outer_key = keys[tops[k - 1]]
            below = sorted(
                key for key in set(keys) if key > outer_key and key not in {keys[i] for i in spots}
            )
            new = below[0] if below else (outer_key[0] + 0.5, outer_key[1] + 1)
            for i in spots:
                keys[i] = new
            break


def _below_contents(
    candidates: list[Candidate], ranks: list[int], styles: list[tuple[float, bool, bool]]
) -> list[int]:
    """Give contents entries their contents level and rank the other headings below them.

    A heading the contents leaves out takes a contents level when its style (or
    its numbering order) belongs to the entries of that level and hardly to any
    heading the contents leaves out; otherwise it nests below the deepest
    contents level, in the order of its own rank.
    """
    depth = max(c.toc_level for c in candidates if c.toc_level is not None)
    toc_styles: dict[tuple[float, bool, bool], Counter[int]] = {}
    toc_orders: dict[int, Counter[int]] = {}
    other_styles: Counter[tuple[float, bool, bool]] = Counter()
    run: dict[int, tuple[int, int]] = {}  # first and last position of each contents level
    for i, (c, s) in enumerate(zip(candidates, styles, strict=True)):
        if c.toc_level is not None:
            toc_styles.setdefault(s, Counter())[c.toc_level] += 1
            run[c.toc_level] = (run.get(c.toc_level, (i, i))[0], i)
            if c.numbered:
                toc_orders.setdefault(c.order, Counter())[c.toc_level] += 1
        elif normalize_for_match(c.title) not in CONTENTS_TITLES | BOOK_TITLES:
            # (a book's usual titles take their level from their face below: "References", "Index")
            other_styles[s] += 1

    def outside(i: int, level: int) -> bool:
        return i < run[level][0] or i > run[level][1]

    # a numbered heading the contents leaves out takes its level from the numbering orders the
    # contents lists: one level per order between it and the nearest listed one (a level 0 or
    # below, a "Part I" over chapters listed at the margin, still nests as a rank)
    above: dict[int, float] = {}
    known = {order: levels.most_common(1)[0][0] for order, levels in toc_orders.items()}
    present = sorted({c.order for c in candidates if c.numbered})
    for order in present:
        if order in known:
            continue
        deeper = [o for o in known if o > order]
        shallower = [o for o in known if o < order]
        if deeper:
            # "1 Introduction" over the listed "1.1 Organization": one level per numbering order between
            nearest = min(deeper)
            between = [
                o for o in present if o not in known and (not shallower or o > max(shallower)) and o < nearest
            ]
            level: float = known[nearest] - (len(between) - between.index(order))
            if shallower and level <= known[max(shallower)]:
                # no room between a listed "Part I" and the listed "1.1": in between, as a rank
                low = known[max(shallower)]
                level = low + (known[nearest] - low) * (between.index(order) + 1) / (len(between) + 1)
            above[order] = level
        elif shallower:
            nearest = max(shallower)  # "2.2.1.1" under the listed "2.2.1"
            above[order] = known[nearest] + sum(1 for o in present if nearest < o <= order)
    rest = sorted({r for c, r in zip(candidates, ranks, strict=True) if c.toc_level is None})
    dense = {r: depth + i + 1 for i, r in enumerate(rest)}
    first_entry = next(i for i, c in enumerate(candidates) if c.toc_level is not None)
    top_rank = min(r for c, r in zip(candidates, ranks, strict=True) if c.toc_level is not None)
    front_styles = {
        s
        for c, s in zip(candidates[:first_entry], styles, strict=False)
        if normalize_for_match(c.title) in CONTENTS_TITLES | BOOK_TITLES
    }
    out: list[float] = []
    for i, (c, s, r) in enumerate(zip(candidates, styles, ranks, strict=True)):
        if c.toc_level is not None:
            out.append(c.toc_level)
        elif i < first_entry and normalize_for_match(c.title) in CONTENTS_TITLES | BOOK_TITLES:
            out.append(1)  # "Contents", "List of Figures" stand beside the chapters the contents lists
        elif i < first_entry and r < top_rank and c.page == candidates[first_entry].page:
            out.append(0)  # the document's title over its first contents entry
        elif i < first_entry and not c.numbered and s in front_styles:
            out.append(1)  # and so do front headings set like them ("Zusammenfassung")
        elif i < first_entry and not c.numbered and s in toc_styles:
            # front matter the contents leaves out, set like listed entries ("List of Figures" in the
            # face of the listed "Acknowledgements"): their level
            out.append(toc_styles[s].most_common(1)[0][0])
        elif s in toc_styles and normalize_for_match(c.title) in CONTENTS_TITLES | BOOK_TITLES:
            out.append(toc_styles[s].most_common(1)[0][0])  # an "Index" set like the listed chapters
        elif c.numbered and c.order in toc_orders:
            out.append(toc_orders[c.order].most_common(1)[0][0])
        elif c.numbered and c.order in above and _numbering_fits(candidates, i):
            out.append(above[c.order])
        elif (
            s in toc_styles
            and sum(toc_styles[s].values()) >= 2
            and other_styles[s] <= 0.25 * sum(toc_styles[s].values())
        ):
            out.append(toc_styles[s].most_common(1)[0][0])
        else:
            out.append(dense[r])
    dense_rank = {v: k + 1 for k, v in enumerate(sorted(set(out)))}
    return [dense_rank[v] for v in out]


def _decimal_label(c: Candidate) -> str | None:
    style = classify(c.title)
    if style is None or style.kind not in ("num", "alnum"):
        return None
    return style.label.rstrip(".").upper()


def _numbering_fits(candidates: list[Candidate], i: int) -> bool:
    """Tell whether a numbered heading's place in the numbering is confirmed by its neighbours.

    A part, chapter or item label stands for its level by itself. A decimal
    number does when the next numbered heading continues it (``1`` before
    ``1.1``) or it continues the numbered heading before it (``2.2.1.1``
    after ``2.2.1``, ``2.4.2`` after ``2.4.1``); a list step (``2. Click on
    Settings``) between unrelated headings does not.
    """
    label = _decimal_label(candidates[i])
    if label is None:
        return True
    after = next((x for x in (_decimal_label(c) for c in candidates[i + 1 :]) if x is not None), None)
    before = next((x for x in (_decimal_label(c) for c in reversed(candidates[:i])) if x is not None), None)
    if after is not None and after.startswith(label + "."):
        return True
    if before is None:
        return False
    parent = label.rsplit(".", 1)[0] if "." in label else None
    # a sibling before it, or one of a sibling's sub-headings ("3.3.2" after "3.3.1.1"), or a
    # sibling after it ("3.3.2" before "3.3.3")
    sibling = parent is not None and (
        (before.startswith(parent + ".") and before.count(".") >= label.count("."))
        or (after is not None and after.count(".") == label.count(".") and after.startswith(parent + "."))
    )
    return label.startswith(before + ".") or sibling


def _rest_in_capitals(title: str) -> bool:
    """Tell whether a heading's words, its number aside, are in capitals (``6 CONCLUSION``)."""
    style = classify(title)
    return is_all_caps(style.rest if style is not None and style.rest else title)


def _caps_words(title: str) -> bool:
    """Tell whether a title is words in capitals: two or more, or one of letters alone.

    ``CONCLUSION`` and ``APPLIED ECONOMETRICS WITH R`` are; a name or a code in
    capitals (``COVID-19``, ``CD-HIT-PARA``) is not.
    """
    return is_all_caps(title) and (len(title.split()) >= 2 or title.strip().isalpha())
