"""The sentence splitter behind every sentence-aware strategy and the fragment metric."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sectionrag._sentences import (
    BREAK_LINE,
    BREAK_PARAGRAPH,
    BREAK_SPACE,
    clause_cuts,
    split_sentences,
)


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text).spans]


@pytest.mark.parametrize(
    "text",
    [
        "Total revenue was $4.2 billion, up 12% from the prior year.",
        "Growth in the U.S. market was strong this quarter.",
        "Apple Inc. reported record services revenue.",
        "Some segments, e.g. cloud and devices, grew quickly.",
        "Other items, i.e. the remainder, were flat.",
        "The trend is shown in Fig. 3 and in Table 2.",
        "See No. 5 of the schedule for details.",
        "Dr. Smith met Mr. J. R. Jones at St. Paul's.",
        'He said "Stop. Now." and left the room.',
        "The rate was approx. five percent at 3 p.m. yesterday.",
        "Results are on pp. 10 to 12 of vol. 2 of the report.",
        "It is a truth universally acknowledged, that a single man in possession\n"
        "of a good fortune, must be in want of a wife.",
    ],
)
def test_does_not_split_inside(text: str) -> None:
    assert sentences(text) == [text]


def test_splits_real_ends_and_records_the_gap() -> None:
    text = "First one. Second one!\nThird one?\n\nFourth one. \u201cFifth.\u201d Sixth."
    result = split_sentences(text)
    assert [text[a:b] for a, b in result.spans] == [
        "First one.",
        "Second one!",
        "Third one?",
        "Fourth one.",
        "\u201cFifth.\u201d",
        "Sixth.",
    ]
    assert result.breaks == [
        BREAK_SPACE,
        BREAK_LINE,
        BREAK_PARAGRAPH,
        BREAK_SPACE,
        BREAK_SPACE,
        BREAK_PARAGRAPH,
    ]


def test_closing_quote_stays_with_its_sentence() -> None:
    text = '"Do you not want to know who has taken it?" cried his wife. "Yes." She left.'
    assert sentences(text) == [
        '"Do you not want to know who has taken it?" cried his wife.',
        '"Yes."',
        "She left.",
    ]


def test_headings_labels_and_lists() -> None:
    text = (
        "Refund Policy:\nCustomers can return products within 7 days with receipt.\n\n"
        "# Shipping\nOrders ship in 3 days.\n"
        "Steps:\n1. Sign in.\n2. Open the order\n- pick an item\n- press Return\n"
        "| a | b |\n| 1 | 2 |"
    )
    assert sentences(text) == [
        "Refund Policy:",
        "Customers can return products within 7 days with receipt.",
        "# Shipping",
        "Orders ship in 3 days.",
        "Steps:",
        "1. Sign in.",
        "2. Open the order",
        "- pick an item",
        "- press Return",
        "| a | b |",
        "| 1 | 2 |",
    ]


def test_short_first_line_before_capitalised_line_is_a_heading() -> None:
    text = "Chapter 1\nIt was a dark and stormy night."
    assert sentences(text) == ["Chapter 1", "It was a dark and stormy night."]


def test_abbreviation_before_capital_may_end_a_sentence() -> None:
    assert sentences("We sold apples, pears, etc. The rest was waste.") == [
        "We sold apples, pears, etc.",
        "The rest was waste.",
    ]
    assert sentences("Revenue rose in the U.S. The rest fell.") == [
        "Revenue rose in the U.S.",
        "The rest fell.",
    ]


def test_cjk_sentence_ends_need_no_space() -> None:
    assert sentences("\u65e5\u672c\u8a9e\u3002\u4e2d\u6587\uff01") == [
        "\u65e5\u672c\u8a9e\u3002",
        "\u4e2d\u6587\uff01",
    ]


def test_regions_and_cuts() -> None:
    text = "Intro text. More intro\n# A\nBody of a. Body two."
    cut = text.index("# A")
    spans = split_sentences(text, 0, len(text), cuts=[cut]).spans
    assert [text[a:b] for a, b in spans] == ["Intro text.", "More intro", "# A", "Body of a.", "Body two."]
    inner = split_sentences(text, cut, len(text)).spans
    assert all(a >= cut for a, _ in inner)


def test_empty_and_whitespace() -> None:
    assert split_sentences("").spans == []
    assert split_sentences(" \n\t ").spans == []
    assert sentences("  no end  ") == ["no end"]


def test_clause_cuts_are_after_punctuation() -> None:
    text = "one, two; three: four \u2014 five"
    cuts = clause_cuts(text, 0, len(text))
    assert [text[:c] for c in cuts] == ["one,", "one, two;", "one, two; three:", "one, two; three: four"]


@pytest.mark.parametrize(
    "lines",
    [
        ["[10:01] <alice> the build fails", "[10:02] <bob> paste the log", "[10:03] <alice> ok"],
        ["Alice: the build fails on the server", "Bob: paste the log", "Alice: ok here it is"],
        ["DR. LEE: how long has it hurt", "PATIENT: about a week", "DR. LEE: and before that"],
        ["12:01 the build fails on the server", "12:02 paste the log", "12:04 ok here"],
        ['{"role": "user", "content": "why"}', '{"role": "assistant", "content": "as"}', '{"role": "user"}'],
    ],
)
def test_each_record_of_a_log_or_chat_is_a_sentence(lines: list[str]) -> None:
    assert sentences("\n".join(lines)) == lines


def test_a_record_that_wraps_or_holds_sentences_stays_whole() -> None:
    text = (
        "[10:01] <alice> the build fails when I run make\n"
        "on the server from yesterday\n"
        "[10:02] <bob> Which server? The new one\n"
        "[10:03] <alice> yes"
    )
    assert sentences(text) == [
        "[10:01] <alice> the build fails when I run make\non the server from yesterday",
        "[10:02] <bob> Which server?",
        "The new one",
        "[10:03] <alice> yes",
    ]


def test_a_tag_at_two_line_starts_of_a_paragraph_is_no_log() -> None:
    text = (
        "<language> (SML) Originally an attempt by Robin Milner\n"
        "<rm@lfcs.ed.ac.uk> to make a language for proofs, it grew\n"
        "into a general-purpose language."
    )
    assert sentences(text) == [text]


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["[{t}] <{who}> ", "{who}: ", "{t} "]),
    st.lists(
        st.tuples(
            st.sampled_from(["Alice", "Bob", "Carol Ann"]),
            st.lists(
                st.sampled_from(["the", "build", "fails", "on", "server", "paste", "log"]),
                min_size=1,
                max_size=12,
            ),
        ),
        min_size=3,
        max_size=30,
    ),
)
def test_no_sentence_runs_across_records(form: str, records: list[tuple[str, list[str]]]) -> None:
    lines = [
        form.format(t=f"{10 + i // 60:02d}:{i % 60:02d}", who=who) + " ".join(words)
        for i, (who, words) in enumerate(records)
    ]
    assert sentences("\n".join(lines)) == lines


@pytest.mark.parametrize("strategy", ["sentence", "paragraph", "recursive", "semantic", "section"])
def test_chunks_of_a_chat_log_start_at_its_messages(strategy: str) -> None:
    import random

    import sectionrag
    from sectionrag.parsers.text import TextParser
    from sectionrag.testing import HashEmbedder

    rng = random.Random(1)
    words = ["the", "build", "fails", "when", "i", "run", "make", "on", "server", "paste", "log", "header"]
    lines = [
        f"[{10 + i // 60:02d}:{i % 60:02d}] <{rng.choice(['alice', 'bob', 'carol'])}> "
        + " ".join(rng.choice(words) for _ in range(rng.randint(3, 14)))
        for i in range(200)
    ]
    text = "\n".join(lines) + "\n"
    doc = TextParser().parse_text(text, source="chat.txt")
    params = {"embedder": HashEmbedder(dimension=32)} if strategy in ("semantic", "section") else {}
    chunks = sectionrag.chunker(strategy, size=64, **params).chunk(doc)
    starts = {0} | {i + 1 for i, ch in enumerate(text) if ch == "\n"}
    assert len(chunks) > 10
    assert [c.start for c in chunks if c.start not in starts] == []


def test_wiki_heading_lines_are_sentences_of_their_own() -> None:
    text = (
        "= Title =\nthe game is played.\n== Gameplay ==\nPlayers move units\nin turns.\n"
        "= = Reception = =\nIt sold."
    )
    assert sentences(text) == [
        "= Title =",
        "the game is played.",
        "== Gameplay ==",
        "Players move units\nin turns.",
        "= = Reception = =",
        "It sold.",
    ]
    assert sentences("x = y\nthe end") == ["x = y\nthe end"]
