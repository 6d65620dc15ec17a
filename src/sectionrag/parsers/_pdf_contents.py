"""Turning the located entries of a PDF's printed contents into headings at their contents level."""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from sectionrag.parsers._pdf_headings import Candidate, numbering_order
from sectionrag.parsers._pdf_title import has_prose
from sectionrag.parsers._pdf_toc import CONTENTS_TITLES, Contents, TocEntry, names_signature
from sectionrag.parsers._pdfium import PdfLine
from sectionrag.parsers._sections import join_title_lines
from sectionrag.parsers.headings import BOOK_TITLES, classify, is_all_caps, normalize_for_match, split_gloss

__all__ = ["apply_contents"]

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
    if not located or len(located) < 0.5 * len(contents.entries) or _inside_the_text(candidates, contents):
        return candidates
    _nest_by_face(located)
    owner: dict[int, Candidate] = {id(ln): c for c in candidates for ln in c.lines}
    removed: set[int] = set()
    added: list[Candidate] = []
    for entry in located:
        first = entry.heading[0]
        page = entry.page_index if entry.page_index is not None else first.page
        c = owner.get(id(first))
        # a title printed on two lines that were found as two headings ("Part B" over its title)
        # is one heading, unless a later line is a numbered heading of its own
        later = [owner[id(ln)] for ln in entry.heading[1:] if id(ln) in owner and owner[id(ln)] is not c]
        if c is None or (later and not any(o.numbered for o in later)):
            for ln in entry.heading:
                if id(ln) in owner:
                    removed.add(id(owner[id(ln)]))
            title = join_title_lines(ln.text for ln in entry.heading)
            glossed = split_gloss(title)
            if glossed is not None and normalize_for_match(glossed[0]) == normalize_for_match(entry.title):
                title = glossed[0]  # the entry names the line's first words; the rest glosses them
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
        if len(entry.heading) == 1 and names_signature(normalize_for_match(entry.title), c.title):
            c.title = entry.title  # a reference entry's signature line, listed by the function's name
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
    prose_pages = {i for i in range(first_page + 1, first_contents) if has_prose(pages[i], body)}
    # a number the contents gives to another title: a bold list item ("1. Precision" inside
    # chapter 2), a cross-reference ("Chapter 3: Importing ... 16"), a specimen chapter
    # (entries with a page: a run-in group of sub-entries is not one title)
    listed: dict[str | None, TocEntry] = {
        _number_key(e.title): e for e in contents.entries if e.page is not None or e.page_index is not None
    }
    listed.pop(None, None)
    out: list[Candidate] = []
    for c in [*candidates, *added]:
        if id(c) in removed:
            continue
        key = _number_key(c.title) if c.toc_level is None and c.numbered else None
        same_number = listed.get(key) if key is not None else None
        # another title with the listed number, or the listed title again once its heading is found
        if same_number is not None and (
            same_number.heading
            or not _same_title(normalize_for_match(same_number.title), normalize_for_match(c.title))
        ):
            continue
        if c.toc_level is None:
            # (a word or three: "Zusammenfassung", "List of Figures"; a title page's title is longer)
            front = normalize_for_match(c.title) in _FRONT_MATTER or (
                c.page in prose_pages and _face(c) in later_faces and len(c.title.split()) <= 3
            )
            if c.page < first_contents and not front:
                continue
            # (a contents page's own title, and those of the lists beside it: "List of Figures")
            norm = normalize_for_match(c.title)
            if c.page in keep_pages and norm not in CONTENTS_TITLES and norm not in BOOK_TITLES:
                continue
        out.append(c)
    out.sort(key=lambda c: (c.page, c.index))
    return out


def _inside_the_text(candidates: list[Candidate], contents: Contents) -> bool:
    """Tell a list of a section's own topics from the document's contents.

    A manual may open a section with a leadered list of the functions it
    documents, and print no contents at its front. Numbered headings on two
    pages or more before that list, after the first page, that it does not
    list (``Chapter 2 C and Fortran Functions``, ``2.1. C Interface
    Overview``) show the text has begun: the list does not rank the
    document's headings, nor drop those before it as front matter.
    """
    first = min(contents.pages)
    listed = {normalize_for_match(e.title) for e in contents.entries}
    pages = {
        c.page
        for c in candidates
        if 0 < c.page < first and c.numbered and normalize_for_match(c.title) not in listed
    }
    return len(pages) >= 2


def _number_key(title: str) -> str | None:
    """Return the number a heading's label gives it (``Chapter 3`` and ``3``: ``3``; ``Appendix A``)."""
    style = classify(title)
    if style is None or style.kind in ("caps", "alpha"):
        return None
    number = style.label.lower().rstrip(".:) ")
    if style.kind == "chapter":
        number = number.split()[-1] if number.split() else number
    elif style.kind not in ("num", "alnum"):
        number = f"{style.kind} {number.split()[-1]}" if number.split() else style.kind
    return number or None


def _same_title(a: str, b: str) -> bool:
    """Tell two normalised titles apart from one title printed a little differently (case, a word).

    A title whose page prints its first words only (the contents' ``Die Hauptklassen tudscrbook,
    tudscrreprt und tudscrartcl`` over the page's ``Die Hauptklassen``) is the same title.
    """
    short, long_ = sorted((a, b), key=len)
    # (two words of three letters or more: "usando x e" is a title broken at a glyph, not its start)
    if sum(len(w) >= 3 for w in short.split()) >= 2 and long_.startswith(short + " "):
        return True
    return a == b or SequenceMatcher(None, a, b).ratio() >= 0.6
