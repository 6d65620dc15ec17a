"""Filtering heading candidates against each other and ranking them into levels."""

from __future__ import annotations

import bisect
import re
from collections import Counter

from sectionrag.parsers._pdf_headings import ORDER, Candidate, numbering_order
from sectionrag.parsers._pdf_toc import CONTENTS_TITLES, Contents, TocEntry
from sectionrag.parsers._pdfium import PdfLine
from sectionrag.parsers._sections import Heading, normalize_title
from sectionrag.parsers.headings import HeadingStyle, classify, is_all_caps, normalize_for_match

__all__ = ["apply_contents", "rank_headings", "split_title"]

_FRONT_KEEP = frozenset(
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


# front matter a book or thesis sets before its contents, each a section of its own
_FRONT_MATTER = frozenset(
    {
        "abstract",
        "dedication",
        "acknowledgments",
        "acknowledgements",
        "acknowledgment",
        "acknowledgement",
        "preface",
        "foreword",
        "publications",
        "summary",
        "executive summary",
    }
)


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
            if c.page in covers and c.toc_level is None and normalize_for_match(c.title) not in _FRONT_KEEP
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
    front: list[Candidate] = []
    for k, c in enumerate(candidates):
        if c.page != first_index or c.index >= first_body or c.numbered:
            break
        if normalize_for_match(c.title) in _FRONT_KEEP:
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

    def face(c: Candidate) -> tuple[float, bool]:
        return (round(c.size * 2) / 2, c.bold)

    later = {face(c) for c in candidates if c.page != first_index}
    block = [
        c
        for c in candidates
        if c.page == first_index
        and id(c) not in taken
        and not c.numbered
        and c.toc_level is None
        and c.lines[0].top < prose_top
        and face(c) not in later
        and normalize_for_match(c.title) not in _FRONT_KEEP
    ]
    return block if len(block) >= 2 else []


def _has_prose(lines: list[PdfLine], body: float) -> bool:
    return any(abs(ln.size - body) < 0.6 and len(ln.text.split()) >= 8 for ln in lines)


def _cover_pages(pages: list[list[PdfLine]], body: float, first: int) -> set[int]:
    """Return the leading pages (two at most) that are a cover or a title page.

    Such a page has a few lines and no paragraph of body text (no line of eight
    words or more at the body size) and is no contents page, and prose follows
    on a later page.
    """
    out: set[int] = set()
    for index in range(first, min(first + 2, len(pages))):
        lines = pages[index]
        if not lines:
            continue
        if _has_prose(lines, body) or len(lines) > 30 or any(ln.role == "toc" for ln in lines):
            break
        out.add(index)
    if out and not any(_has_prose(lines, body) for lines in pages[max(out) + 1 :]):
        return set()
    return out


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


def _without_labels(candidates: list[Candidate], *, repeats: int = 4) -> list[Candidate]:
    """Drop unnumbered body-sized headings whose title recurs ``repeats`` times or more.

    ``Rationale``, ``Convention``, ``Meaning`` or ``Recommended alternative``
    set over one box after another are labels, not sections; a numbered
    heading or a large one (``Introduction`` of each paper in proceedings) stays.
    """
    counts = Counter(normalize_for_match(c.title) for c in candidates if not c.numbered)
    sizes = sorted(c.size for c in candidates)
    # the largest tenth of heading sizes, when headings come in more than one size
    large = sizes[int(0.9 * (len(sizes) - 1))] if sizes and sizes[0] != sizes[-1] else float("inf")
    return [
        c
        for c in candidates
        if c.numbered
        or c.toc_level is not None
        or counts[normalize_for_match(c.title)] < repeats
        or c.size >= large
    ]


def _letters_in_runs(candidates: list[Candidate]) -> list[Candidate]:
    """Keep one-letter headings (an index's ``A``, ``B`` ...) only in alphabetical runs of three or more."""
    letters = [i for i, c in enumerate(candidates) if len(c.title) == 1]
    keep: set[int] = set()
    run: list[int] = []
    for i in [*letters, None]:
        if i is not None and run and candidates[i].title > candidates[run[-1]].title:
            run.append(i)
            continue
        if len(run) >= 3:
            keep.update(run)
        run = [i] if i is not None else []
    return [c for i, c in enumerate(candidates) if len(c.title) != 1 or i in keep or c.toc_level is not None]


def _next_number(numbers: list[int | None], positions: list[int], i: int) -> int | None:
    """Return the chapter-level number of the first numbered heading after position ``i``."""
    k = bisect.bisect_right(positions, i)
    return numbers[positions[k]] if k < len(positions) else None


_TRAILING_NUMBER = re.compile(r"^(?P<title>\D.*?)\s+(?P<number>\d{1,3})$")


def _in_sequence(candidates: list[Candidate]) -> list[Candidate]:
    """Drop numbered headings that break the chapter sequence or repeat an earlier one.

    Inside chapter 2, ``2.12 Text object methods`` belongs; ``14.5 points: ...``
    (a font-size specimen) and a sample ``Chapter 9`` do not. A heading that
    jumps ahead is kept when the next numbered heading confirms it (``8`` then
    ``8.1`` after a missed chapter 7), and a sub-heading when a neighbouring
    sub-heading shares its first number (``7.1`` then ``7.2``). A numbered
    heading seen before, again at the top of a page (``5. ABSTRACTS`` as a
    running head), is dropped, and a chapter title set before its number
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
        around[i] = (before, after)
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    tops_seen: set[int] = set()
    top: int | None = None
    top_face: tuple[float, bool] | None = None

    def face(c: Candidate) -> tuple[float, bool]:
        return (round(c.size * 2) / 2, c.bold)

    for i, c in enumerate(candidates):
        number = numbers[i]
        if number is None and not c.numbered:
            m = _TRAILING_NUMBER.match(c.title)
            expected = top + 1 if top is not None else 1  # the first chapter is chapter 1
            if m and int(m.group("number")) == expected == _next_number(numbers, numbered_positions, i):
                c.title = f"{m.group('number')} {m.group('title')}"
                c.order, c.numbered = numbering_order(c.title)
                styles[i] = classify(c.title)
                number = expected
        elif number is not None and top is not None and number not in (top, top + 1) and c.toc_level is None:
            before, after = around[i]
            # the columns may put "7" before "6": the number after the highest one seen is in sequence,
            # and so is a jump ahead that the next numbered heading continues ("8" then "9"), both
            # only in the face of the numbered headings accepted so far (not a list, not a specimen)
            same_face = top_face is not None and face(c) == top_face
            confirmed = (
                after == number
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
        if number is not None:
            top = number
            tops_seen.add(number)
            top_face = face(c)
        out.append(c)
    return out


def rank_headings(candidates: list[Candidate], line_offsets: dict[int, int]) -> list[Heading]:
    """Rank heading styles (size, weight) and numbering depth into nesting ranks.

    Headings found through the printed contents keep their contents level;
    the others rank below them, except a style that only contents entries of
    one level use (an ``Index`` set like the chapters the contents lists).
    """
    candidates = _in_sequence(_letters_in_runs(_without_labels(candidates)))
    if not candidates:
        return []

    def style_key(c: Candidate) -> tuple[float, bool, bool]:
        return (round(c.size * 2) / 2, c.bold, c.italic)

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
    styles = sorted({style_key(c) for c in candidates}, key=lambda s: (-s[0], not s[1], s[2]))
    style_rank = {s: i for i, s in enumerate(styles)}
    # unnumbered headings take the numbering order most common in their style
    common: dict[tuple[float, bool, bool], int] = {}
    for s in styles:
        orders = Counter(c.order for c in candidates if style_key(c) == s and c.numbered)
        if orders:
            common[s] = orders.most_common(1)[0][0]
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
            span[c.order] = (span.get(c.order, (i, i))[0], i)
    keys: list[tuple[float, int]] = []
    for i, c in enumerate(candidates):
        s = style_key(c)
        if c.numbered:
            keys.append((float(c.order), numbered_rank[c.order]))
        elif s in common and common[s] in span and span[common[s]][0] < i < span[common[s]][1]:
            # set like "Item 2." and "Item 3." but between them, unnumbered: a heading inside the item
            keys.append((common[s] + 0.5, style_rank[s]))
        else:
            keys.append((order_of(s), style_rank[s]))
    # Between the first and the last top-level numbered heading, an unnumbered heading cannot
    # stand above them (a sample title page inside chapter 4 is not a parent of chapter 5),
    # unless the top numbering is itself a sub-level ("7.1" under an unnumbered "Integrals").
    if numbered_rank and min(numbered_rank) <= ORDER["roman"] + 1:
        top_order = min(numbered_rank)
        tops = [i for i, c in enumerate(candidates) if c.numbered and c.order == top_order]
        for i in range(tops[0] + 1, tops[-1]):
            if not candidates[i].numbered and keys[i][0] < top_order:
                keys[i] = (top_order + 0.5, keys[i][1])
    # a front heading in a face of its own ("Abstract" in bold over sections in a lighter face)
    # stands beside the top-level sections, not above them
    style_counts = Counter(style_key(c) for c in candidates)
    for i, c in enumerate(candidates):
        others = [k for j, k in enumerate(keys) if j != i]
        if (
            others
            and not c.numbered
            and normalize_for_match(c.title) in _FRONT_KEEP
            and style_counts[style_key(c)] == 1
            and keys[i] < min(others)
        ):
            keys[i] = min(others)
    # merge styles that numbering says are the same level (a numbered "2.1" in two sizes)
    ranked = sorted(set(keys))
    rank_of = {k: i + 1 for i, k in enumerate(ranked)}
    ranks = [rank_of[k] for k in keys]
    if any(c.toc_level is not None for c in candidates):
        ranks = _below_contents(candidates, ranks, [style_key(c) for c in candidates])
    out = []
    for c, rank in zip(candidates, ranks, strict=True):
        out.append(Heading(line_offsets[id(c.lines[0])], rank, c.title))
    out.sort(key=lambda h: h.start)
    return out


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
        else:
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
    out: list[float] = []
    for i, (c, s, r) in enumerate(zip(candidates, styles, ranks, strict=True)):
        if c.toc_level is not None:
            out.append(c.toc_level)
        elif i < first_entry and normalize_for_match(c.title) in CONTENTS_TITLES:
            out.append(1)  # "Contents" stands beside the chapters it lists
        elif i < first_entry and r < top_rank and c.page == candidates[first_entry].page:
            out.append(0)  # the document's title over its first contents entry
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
    sibling = (
        "." in label
        and before.count(".") == label.count(".")
        and before.rsplit(".", 1)[0] == label.rsplit(".", 1)[0]
    )
    return label.startswith(before + ".") or sibling


def _face(c: Candidate) -> tuple[float, bool, bool]:
    return (round(c.size * 2) / 2, c.bold, is_all_caps(c.title))


def _body_of(pages: list[list[PdfLine]]) -> float:
    sizes: Counter[float] = Counter()
    for lines in pages:
        for ln in lines:
            sizes[round(ln.size * 2) / 2] += len(ln.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _nest_by_face(located: list[TocEntry]) -> None:
    """Move an unnumbered entry one level down when its heading is set like the level below.

    A contents may list front matter flat (``Notices``, ``Trademarks``,
    ``Preface``, ``Authors`` all at the margin) while the pages set
    ``Trademarks`` in the face of the ``1.1`` sections, not in the face of
    ``Notices`` and the chapters: it is a section of the entry above it.
    """
    faces = [(round(max(ln.size for ln in e.heading) * 2) / 2, e.heading[-1].bold) for e in located]
    by_level: dict[int, Counter[tuple[float, bool]]] = {}
    for e, face in zip(located, faces, strict=True):
        by_level.setdefault(e.level, Counter())[face] += 1
    parent: TocEntry | None = None
    for e, face in zip(located, faces, strict=True):
        own, deeper = by_level[e.level], by_level.get(e.level + 1)
        style = classify(e.title)
        numbered = style is not None and style.kind not in ("caps", "alpha")
        if (
            not numbered
            and deeper
            and parent is not None
            and parent.level == e.level
            and own.most_common(1)[0][0] != face
            and deeper.most_common(1)[0][0] == face
            and own[face] < 0.5 * sum(own.values())
        ):
            e.level += 1
            continue
        if own.most_common(1)[0][0] == face:
            parent = e


def apply_contents(
    candidates: list[Candidate], contents: Contents, pages: list[list[PdfLine]]
) -> list[Candidate]:
    """Make the located contents entries headings at their contents level.

    Used when at least half of the entries were found on their pages. Headings
    on pages before the first contents page (a cover, a title page) are
    dropped, except a contents entry found there and the usual front matter
    (``Abstract``, ``Dedication``, ``Acknowledgments``, ``Preface`` ...); so are the contents pages'
    own lines, except their title (``Contents``). Returns the new candidates
    in page order.
    """
    located = contents.located
    if not located or len(located) < 0.5 * len(contents.entries):
        return candidates
    _nest_by_face(located)
    owner: dict[int, Candidate] = {id(ln): c for c in candidates for ln in c.lines}
    removed: set[int] = set()
    added: list[Candidate] = []
    for entry in located:
        first = entry.heading[0]
        page = entry.page_index if entry.page_index is not None else first.page
        c = owner.get(id(first))
        if c is None:
            for ln in entry.heading:
                if id(ln) in owner:
                    removed.add(id(owner[id(ln)]))
            title = normalize_title(" ".join(ln.text for ln in entry.heading))
            order, numbered = numbering_order(title)
            last = entry.heading[-1]
            c = Candidate(
                list(entry.heading),
                title,
                max(ln.size for ln in entry.heading),
                last.bold,
                order,
                numbered,
                page,
                pages[page].index(first),
                last.italic,
            )
            added.append(c)
        c.toc_level = entry.level
        for ln in c.lines:
            ln.role = "heading"
    first_contents = min(contents.pages)
    keep_pages = set(contents.pages)
    # front matter is set like the headings after the contents: a heading on a page of text before
    # the contents, in a face that headings after the contents use, is a section ("Zusammenfassung")
    body = _body_of(pages)
    later_faces = {_face(c) for c in [*candidates, *added] if c.page > max(contents.pages)}
    # (not the first page: a cover, a filing's cover page, a title page with its text)
    first_page = next((i for i, lines in enumerate(pages) if lines), 0)
    prose_pages = {i for i in range(first_page + 1, first_contents) if _has_prose(pages[i], body)}
    out: list[Candidate] = []
    for c in [*candidates, *added]:
        if id(c) in removed:
            continue
        if c.toc_level is None:
            # (a word or three: "Zusammenfassung", "List of Figures"; a title page's title is longer)
            front = normalize_for_match(c.title) in _FRONT_MATTER or (
                c.page in prose_pages and _face(c) in later_faces and len(c.title.split()) <= 3
            )
            if c.page < first_contents and not front:
                continue
            if c.page in keep_pages and normalize_for_match(c.title) not in CONTENTS_TITLES:
                continue
        out.append(c)
    out.sort(key=lambda c: (c.page, c.index))
    return out
