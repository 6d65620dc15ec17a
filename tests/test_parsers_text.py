from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _section_checks import check_sections
from sectionrag.errors import ParseError
from sectionrag.parsers.text import TextParser


def parse(text: str):
    return TextParser().parse_text(text)


def tree(doc):
    return [(s.level, s.title) for s in doc.sections]


def test_sec_filing_structure():
    text = (
        "ANNUAL REPORT\n\n"
        "PART I\n\n"
        "Item 1. Business\n\nWe make things. We sell them.\n\n"
        "Item 1A. Risk Factors\n\nThings may go wrong.\n\n"
        "PART II\n\n"
        "Item 7. Management's Discussion and Analysis\n\nRevenue grew 12%.\n"
    )
    doc = parse(text)
    assert tree(doc) == [
        (1, "ANNUAL REPORT"),
        (2, "PART I"),
        (3, "Item 1. Business"),
        (3, "Item 1A. Risk Factors"),
        (2, "PART II"),
        (3, "Item 7. Management's Discussion and Analysis"),
    ]
    assert doc.sections[2].path == ("ANNUAL REPORT", "PART I", "Item 1. Business")
    check_sections(doc)


def test_item_titles_ending_in_a_stop_and_long_item_titles_are_headings():
    # a current report prints its items' titles as phrases with a full stop; an annual report's
    # Item 5 title runs past 100 characters; a sentence after a label is still no title
    text = (
        "FORM 8-K\n\n"
        "Item 2.02 Results of Operations and Financial Condition.\n\nThe company issued a release.\n\n"
        "Item 5.02 Departure of Directors or Certain Officers; Election of Directors; Appointment of"
        " Certain Officers; Compensatory Arrangements of Certain Officers.\n\nA director resigned.\n\n"
        "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer"
        " Purchases of Equity Securities\n\nThe shares trade on the exchange.\n\n"
        "Item 9. The company had no disagreements with its accountants.\n\nNone were reported.\n"
    )
    doc = parse(text)
    assert [t for _, t in tree(doc)] == [
        "FORM 8-K",
        "Item 2.02 Results of Operations and Financial Condition.",
        "Item 5.02 Departure of Directors or Certain Officers; Election of Directors; Appointment of"
        " Certain Officers; Compensatory Arrangements of Certain Officers.",
        "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer"
        " Purchases of Equity Securities",
    ]
    check_sections(doc)


def test_numbered_headings_nest_by_depth():
    text = (
        "1. Introduction\n\nSome text here.\n\n1.1 Scope\n\nMore text.\n\n"
        "1.1.1 Detail\n\nDetail text.\n\n2. Methods\n\nText.\n"
    )
    doc = parse(text)
    assert tree(doc) == [(1, "1. Introduction"), (2, "1.1 Scope"), (3, "1.1.1 Detail"), (1, "2. Methods")]
    check_sections(doc)


def test_conservative_on_prose_and_lists():
    text = (
        "This is a paragraph.\n\n1. buy milk\n2. buy eggs\n\n"
        "3. This list item is a whole sentence that ends with a period.\n\n"
        "Section 5 of the act says that the thing must be done.\n\n"
        "I. am a sentence.\n\nOK\n\n"
    )
    assert tree(parse(text)) == []


def test_table_of_contents_is_not_sections():
    text = (
        "TABLE OF CONTENTS\n\n"
        "1. Introduction ........ 1\n2. Methods ........ 4\n3. Results ........ 9\n\n"
        "1. Introduction\n\nText.\n\n2. Methods\n\nText.\n"
    )
    assert tree(parse(text)) == [(1, "TABLE OF CONTENTS"), (2, "1. Introduction"), (2, "2. Methods")]


def test_underlined_titles():
    text = "Overview\n========\n\nText here.\n\nDetails\n-------\n\nMore.\n"
    assert tree(parse(text)) == [(1, "Overview"), (2, "Details")]


def test_no_headings_is_fine():
    doc = parse("just some words\nand more words.\n")
    assert doc.sections == ()


def test_file_decoding_fallbacks(tmp_path: Path):
    p = tmp_path / "legacy.txt"
    p.write_bytes("PART I\r\n\r\nCaf\u00e9 \u201cquoted\u201d \u2013 \u20ac5.\r\n".encode("cp1252"))
    doc = TextParser().parse(p)
    assert doc.metadata["encoding"] == "cp1252"
    assert doc.text == "PART I\n\nCaf\u00e9 \u201cquoted\u201d \u2013 \u20ac5.\n"
    assert tree(doc) == [(1, "PART I")]
    p.write_bytes(b"abc \x81\x8d\x8f\x90\x9d\xff text\n")  # undefined in cp1252 -> latin-1
    assert TextParser().parse(p).metadata["encoding"] == "latin-1"
    p.write_bytes("hello \u00e9\n".encode("utf-16"))
    assert TextParser().parse(p).text == "hello \u00e9\n"


@pytest.mark.parametrize("content", [b"", b"   \n\t\r\n"])
def test_empty_file_is_parse_error(tmp_path: Path, content: bytes):
    p = tmp_path / "empty.txt"
    p.write_bytes(content)
    with pytest.raises(ParseError, match=r"empty\.txt.*empty"):
        TextParser().parse(p)


def test_bytes_source_and_name():
    doc = TextParser().parse(b"PART I\n\nhello\n", name="mem.txt")
    assert doc.source == "mem.txt"


_word = st.text(alphabet="abdefghjkmnopqrstuwyz", min_size=2, max_size=8)
_title = st.builds(lambda a, rest: " ".join([a.capitalize(), *rest]), _word, st.lists(_word, max_size=3))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 3), _title, st.lists(_word, min_size=1, max_size=20)),
        min_size=1,
        max_size=12,
    )
)
def test_numbered_headings_found_and_spans_nested(items):
    counters = [0, 0, 0]
    depth_prev = 0
    parts: list[str] = []
    expected: list[tuple[int, str]] = []
    pos = 0
    for depth, title, words in items:
        depth = min(depth, depth_prev + 1)
        counters[depth - 1] += 1
        for k in range(depth, 3):
            counters[k] = 0
        number = ".".join(str(c) for c in counters[:depth])
        line = f"{number}. {title}" if depth == 1 else f"{number} {title}"
        expected.append((pos, line))
        chunk = f"{line}\n\n{' '.join(words)}.\n\n"
        parts.append(chunk)
        pos += len(chunk)
        depth_prev = depth
    text = "".join(parts)
    doc = parse(text)
    assert [(s.start, s.title) for s in doc.sections] == expected
    for s in doc.sections:
        assert s.level == s.title.split()[0].rstrip(".").count(".") + 1
    check_sections(doc)


def test_wiki_headings_nest_by_their_equals_signs():
    text = (
        "Valkyria Chronicles\n\nA tactical game made by Sega. It came out in 2008.\n\n"
        "== Gameplay ==\nPlayers move units in turns.\n\n"
        "=== Units ===\n\nThere are five classes.\n\n"
        "== Reception ==\n\nIt sold well. Critics praised it.\n"
    )
    doc = parse(text)
    assert tree(doc) == [(1, "Gameplay"), (2, "Units"), (1, "Reception")]
    assert doc.sections[1].path == ("Gameplay", "Units")
    assert doc.text[doc.sections[0].start :].startswith("== Gameplay ==")
    check_sections(doc)


def test_wikitext_spaced_equals_signs():
    text = (
        " = Valkyria Chronicles = \n \n Senjou no Valkyria is a game developed by Sega . \n \n"
        " = = Gameplay = = \n \n The game is played in turns . \n \n"
        " = = = Units = = = \n \n There are five classes of units . \n \n"
        " = = Reception = = \n \n It sold well in Japan . \n"
    )
    doc = parse(text)
    assert tree(doc) == [
        (1, "Valkyria Chronicles"),
        (2, "Gameplay"),
        (3, "Units"),
        (2, "Reception"),
    ]
    check_sections(doc)


def test_equals_signs_without_a_title_or_in_a_sentence_are_text():
    text = "Intro text here.\n\n= = = =\n\n= + =\n\nSo a = b = c holds.\n\n==\n"
    assert tree(parse(text)) == []


def test_markdown_headings_in_plain_text():
    text = (
        "# Installation Guide\n\nRun the installer.\n\n## Requirements\n\nPython 3.11 or later.\n\n"
        "```\n# install the package\npip install x\n\n# Not A Heading\n\n```\n\n"
        "## Upgrading\n\nRun it again.\n"
    )
    doc = parse(text)
    assert tree(doc) == [(1, "Installation Guide"), (2, "Requirements"), (2, "Upgrading")]
    check_sections(doc)


def test_hash_comments_of_a_listing_are_not_headings():
    text = (
        "Setup\n\nType these lines:\n\n"
        "# install the package and its dependencies\npip install x\n\n"
        "# This makes the directory that the tool writes its cache into.\n\n"
        "mkdir cache\n"
    )
    assert tree(parse(text)) == []


def test_a_tilde_underline_is_no_code_fence():
    text = " Regression tests\n ~~~~~~~~~~~~~~~~\n\nSome text.\n\n== Notes ==\n\nMore text.\n"
    assert [t for _, t in tree(parse(text))] == ["Regression tests", "Notes"]


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["wiki", "wikitext", "markdown"]),
    st.lists(
        st.tuples(st.integers(1, 4), _title, st.lists(_word, min_size=1, max_size=20)),
        min_size=1,
        max_size=12,
    ),
)
def test_markup_headings_found_at_their_levels(markup, items):
    parts: list[str] = []
    expected: list[tuple[int, str, int]] = []
    pos = 0
    depth_prev = 0
    for depth, title, words in items:
        depth = min(depth, depth_prev + 1)
        if markup == "markdown":
            line = f"{'#' * depth} {title}"
        else:
            mark = ("= " if markup == "wikitext" else "=") * depth
            line = f"{mark.strip()} {title} {mark.strip()}"
        expected.append((pos, title, depth))
        chunk = f"{line}\n\n{' '.join(words)}.\n\n"
        parts.append(chunk)
        pos += len(chunk)
        depth_prev = depth
    doc = parse("".join(parts))
    assert [(s.start, s.title, s.level) for s in doc.sections] == expected
    check_sections(doc)
