"""reStructuredText: section titles and their levels as docutils reads them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sectionrag
from _section_checks import check_sections
from sectionrag.parsers import detect_kind
from sectionrag.parsers.rst import RstParser

DATA = Path(__file__).parent / "data" / "rst"


def tree(text: str) -> list[tuple[int, str]]:
    return [(s.level, s.title) for s in RstParser().parse_text(text).sections]


def test_levels_follow_the_order_styles_first_appear():
    text = (
        "=========\n Manual\n=========\n\nIntro.\n\n"
        "Install\n=======\n\nSteps.\n\nFrom source\n-----------\n\nBuild it.\n\n"
        "Use\n===\n\nRun it.\n"
    )
    doc = RstParser().parse_text(text)
    assert [(s.level, s.title) for s in doc.sections] == [
        (1, "Manual"),
        (2, "Install"),
        (3, "From source"),
        (2, "Use"),
    ]
    assert doc.sections[0].start == 0  # the overline starts the section
    assert doc.metadata["title"] == "Manual"
    check_sections(doc)


def test_an_overline_makes_a_style_of_its_own():
    text = "Part\n====\n\nText.\n\n=======\n Other\n=======\n\nText.\n\nThird\n====\n\nText.\n"
    assert tree(text) == [(1, "Part"), (2, "Other"), (1, "Third")]


def test_a_title_may_follow_a_title_at_once():
    text = "=======\n Title\n=======\n---------\n Subtitle\n---------\n\n:Author: someone\n"
    assert tree(text) == [(1, "Title"), (2, "Subtitle")]


@pytest.mark.parametrize(
    "text",
    [
        "Some text.\n\n----------\n\nMore text.\n",  # a transition
        "A paragraph that goes on\nand ends here.\n-------------\n",  # no blank line before the underline
        "Usage::\n\n    Title\n    =====\n\nDone.\n",  # a literal block
        ".. note::\n\n   Heading\n   -------\n",  # a directive's body
        "Long title of a section\n--\n",  # an underline shorter than the title and than four
        "Title\n=-=-=\n",  # an adornment is one character
        "=====  =====\nA      B\n=====  =====\n",  # a simple table
    ],
)
def test_what_is_not_a_title(text: str):
    assert tree(text) == []


def test_inline_markup_leaves_the_title():
    text = (
        "The ``sectionrag`` *package*\n============================\n\n"
        "Using :mod:`email` with **care**\n-------------------------------\n\n"
        "`Docs <https://example.org>`_ and docutils_\n-----------------------------------\n\n"
        "Calling ``and_()`` and numpy.bool_\n----------------------------------\n"
    )
    assert [t for _, t in tree(text)] == [
        "The sectionrag package",
        "Using email with care",
        "Docs and docutils",
        "Calling and_() and numpy.bool_",
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("policies.rst", 20),
        ("demo.rst", 35),
    ],
)
def test_real_documents_match_docutils(name: str, expected: int):
    # the (level, title) pairs docutils 0.23.1 gives these files (document title kept as a section)
    truth = {
        "policies.rst": [
            (1, "Docutils Project Policies"),
            (2, "Python Coding Conventions"),
            (2, "Documentation Conventions"),
            (2, "Copyrights and Licensing"),
            (2, "Repository"),
            (3, "Branches"),
            (4, "Review Criteria"),
            (3, "Check-ins"),
            (2, "Version Identification"),
            (3, "docutils.__version_info__"),
            (3, "docutils.__version__"),
            (3, "Policy History"),
            (2, "Backwards Compatibility Policy"),
            (2, "Snapshots"),
            (2, "Setting Up For Docutils Development"),
            (2, "Mailing Lists"),
            (2, "Extensions and Related Projects"),
            (3, "The Sandbox"),
            (3, "Parallel Projects"),
            (3, "Other related projects"),
        ],
        "demo.rst": [
            (1, "reStructuredText Demonstration"),
            (2, "Examples of Syntax Constructs"),
            (3, "Structural Elements"),
            (4, "Section Title"),
            (4, "Transitions"),
            (3, "Body Elements"),
            (4, "Paragraphs"),
            (5, "Inline Markup"),
            *[(4, t) for t in ("Bullet Lists", "Enumerated Lists", "Definition Lists", "Field Lists")],
            *[(4, t) for t in ("Option Lists", "Literal Blocks", "Line Blocks", "Block Quotes")],
            *[(4, t) for t in ("Doctest Blocks", "Tables", "Footnotes", "Citations", "Targets")],
            (5, "Duplicate Target Names"),
            (5, "Duplicate Target Names"),
            (4, "Directives"),
            *[(5, t) for t in ("Document Parts", "Images", "Admonitions", "Topics, Sidebars, and Rubrics")],
            *[(5, t) for t in ("Target Footnotes", "Replacement Text", "Compound Paragraph", "Meta")],
            (4, "Substitution Definitions"),
            (4, "Comments"),
            (3, "Error Handling"),
        ],
    }[name]
    doc = sectionrag.parse(DATA / name)
    assert doc.metadata["format"] == "rst"
    assert [(s.level, s.title) for s in doc.sections] == truth
    assert len(truth) == expected
    check_sections(doc)


def test_rst_files_are_parsed_as_rst(tmp_path: Path):
    path = tmp_path / "guide.rst"
    path.write_text("Guide\n=====\n\nRead me.\n", encoding="utf-8")
    assert detect_kind(path) == "rst"
    assert [s.title for s in sectionrag.parse(path).sections] == ["Guide"]


_CHARS = list("=-~^\"'`#*+:.")
_word = st.text(alphabet="abdefghjkmnopqrstuwyz", min_size=2, max_size=8)
_title = st.builds(lambda a, rest: " ".join([a.capitalize(), *rest]), _word, st.lists(_word, max_size=4))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_CHARS), st.booleans()), min_size=1, max_size=5, unique=True),
    st.lists(st.tuples(st.integers(1, 5), _title, st.lists(_word, min_size=1, max_size=15)), max_size=12),
)
def test_any_tree_in_any_styles_is_read_back(styles, items):
    parts, expected, depth_prev = [], [], 0
    for depth, title, words in items:
        depth = min(depth, depth_prev + 1, len(styles))
        char, overline = styles[depth - 1]
        bar = char * (len(title) + 2)
        head = f"{bar}\n {title}\n{bar}\n" if overline else f"{title}\n{bar}\n"
        parts.append(f"{head}\n{' '.join(words)}.\n\n")
        expected.append((depth, title))
        depth_prev = depth
    doc = RstParser().parse_text("".join(parts) or "text\n")
    # levels are the order in which styles first appear: the tree's depths when they appear in order
    assert [(s.level, s.title) for s in doc.sections] == expected
    check_sections(doc)
