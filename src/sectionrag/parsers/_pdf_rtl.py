"""Section numbers of right-to-left documents, read in the order their writers meant.

In a Persian or Arabic document a section number is printed with the chapter
on the right ("2.1" for chapter 1, section 2, as a left-to-right reader sees
it), and PDF producers store its pieces in either order. Where a document's
right-to-left headings read as "1.1", "2.1", "3.1" (the last part fixed, the
first one counting), their numbers are stored the other way round; turned
back ("1.1", "1.2", "1.3") they nest under their chapters again.
"""

from __future__ import annotations

import itertools
import re

from sectionrag.parsers._pdfium import RTL_LETTERS, PdfLine

__all__ = ["orient_rtl_numbers"]

_RTL = re.compile(f"[{RTL_LETTERS}]")
_LATIN = re.compile("[A-Za-z]")
# a number of two parts or more opening the line, in any digits, its parts joined by a stop or a dash
_NUMBER = re.compile(r"(\d{1,3}(?:[.\-\u2212]\d{1,3})+)(?=\s)")
_SEPARATOR = re.compile(r"[.\-\u2212]")


def _rtl_number(line: PdfLine) -> re.Match[str] | None:
    """Return the number opening a right-to-left line (its parts ``_SEPARATOR`` apart), else ``None``."""
    found = _NUMBER.match(line.text)
    if found is None:
        return None
    rest = line.text[found.end() :]
    rtl = len(_RTL.findall(rest))
    if rtl < 2 or rtl <= len(_LATIN.findall(rest)):
        return None
    return found


def orient_rtl_numbers(pages: list[list[PdfLine]]) -> None:
    """Turn the numbers of right-to-left headings round where the document stores them reversed.

    Consecutive numbers of one depth share their first part when read the
    right way ("1.1", "1.2") and their last part when reversed ("1.1", "2.1");
    the document's pairs vote, and a reversed majority turns every such
    number, in place, into the same characters in the other order.
    """
    numbered = [(ln, found) for lines in pages for ln in lines if (found := _rtl_number(ln)) is not None]
    first_kept = last_kept = 0
    for (_, x), (_, y) in itertools.pairwise(numbered):
        a, b = _SEPARATOR.split(x.group(1)), _SEPARATOR.split(y.group(1))
        if len(a) != len(b) or a == b:
            continue
        first_kept += a[0] == b[0] and a[-1] != b[-1]
        last_kept += a[-1] == b[-1] and a[0] != b[0]
    if last_kept <= max(first_kept, 1):
        return
    for ln, found in numbered:
        label = found.group(1)
        separators = _SEPARATOR.findall(label)
        parts = _SEPARATOR.split(label)[::-1]
        turned = parts[0] + "".join(s + p for s, p in zip(separators, parts[1:], strict=True))
        ln.text = turned + ln.text[found.end() :]
