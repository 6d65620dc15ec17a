from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from _section_checks import check_sections
from sectionrag.parsers.markdown import MarkdownParser, clean_inline, parse_front_matter


def md(text: str):
    return MarkdownParser().parse_text(text)


def titles(doc):
    return [(s.level, s.title) for s in doc.sections]


def test_atx_and_setext_nested_with_paths():
    text = "Intro line\n\n# A\n\ntext\n\n## B #\n\nmore\n\nC\n===\n\nD part\nsecond line\n---\n\n### E\n"
    doc = md(text)
    assert titles(doc) == [(1, "A"), (2, "B"), (1, "C"), (2, "D part second line"), (3, "E")]
    assert doc.sections[3].path == ("C", "D part second line")
    assert doc.sections[4].path == ("C", "D part second line", "E")
    assert text[doc.sections[2].start :].startswith("C\n===")
    assert text[doc.sections[3].start :].startswith("D part\n")
    check_sections(doc)


def test_code_fences_and_comments_hide_headings():
    text = (
        "# Real\n\n```python\n# not a heading\n```\n\n~~~~\n## nor this\n```\n~~~~\n\n"
        "<!--\n# commented\n-->\n\n    # indented code\n\n## Also real\n"
    )
    assert titles(md(text)) == [(1, "Real"), (2, "Also real")]


def test_unclosed_fence_runs_to_end():
    assert titles(md("# A\n```\n# B\n")) == [(1, "A")]


def test_thematic_break_and_lists_are_not_setext():
    text = "# A\n\n---\n\n- item\n---\n\n| a | b |\n|---|---|\n"
    assert titles(md(text)) == [(1, "A")]


def test_heading_levels_skip_and_close():
    doc = md("### deep\n# top\n### child\n## mid\n")
    assert [(s.level, s.path) for s in doc.sections] == [
        (1, ("deep",)),
        (1, ("top",)),
        (2, ("top", "child")),
        (2, ("top", "mid")),
    ]
    check_sections(doc)


def test_inline_markup_stripped_from_titles():
    assert clean_inline("**Risk** [Factors](#rf) `code` *x* {#id}") == "Risk Factors code x"
    assert clean_inline(r"snake_case \# literal") == "snake_case # literal"


def test_front_matter_metadata_and_title():
    text = (
        "---\ntitle: 'Annual Report'\nyear: 2024\ntags:\n  - a\n  - b\ndraft: false\nauthor: {x}\n---\n# H\n"
    )
    doc = md(text)
    assert doc.metadata["title"] == "Annual Report"
    assert doc.metadata["year"] == 2024
    assert doc.metadata["tags"] == ["a", "b"]
    assert doc.metadata["draft"] is False
    assert titles(doc) == [(1, "H")]
    meta, body = parse_front_matter("---\nno close\n# H\n")
    assert meta == {} and body == 0


def test_title_from_first_h1():
    assert md("## x\n# First\n# Second\n").metadata["title"] == "First"


def test_parse_file_crlf_and_bom(tmp_path: Path):
    p = tmp_path / "a.md"
    p.write_bytes(b"\xef\xbb\xbf# T\xc3\xa9\r\n\r\nbody\r\n## Sub\r\n")
    doc = MarkdownParser().parse(p)
    assert doc.text == "# T\u00e9\n\nbody\n## Sub\n"
    assert titles(doc) == [(1, "T\u00e9"), (2, "Sub")]
    assert doc.metadata["encoding"] == "utf-8-sig"
    assert doc.source == str(p)


# ---- property-based: build Markdown while recording where each heading goes

_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
_title = st.builds(
    lambda first, rest: " ".join([first.capitalize(), *rest]), _word, st.lists(_word, max_size=4)
)
_block = st.one_of(
    st.tuples(st.just("atx"), st.integers(1, 6), _title),
    st.tuples(st.just("setext"), st.integers(1, 2), _title),
    st.tuples(st.just("para"), st.just(0), st.lists(_word, min_size=1, max_size=12).map(" ".join)),
    st.tuples(st.just("fence"), st.integers(1, 3), _title),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_block, min_size=1, max_size=25), st.booleans())
def test_every_heading_found_with_offsets(blocks, crlf_free_front):
    parts: list[str] = []
    expected: list[tuple[int, int, str]] = []
    pos = 0

    def add(s: str) -> None:
        nonlocal pos
        parts.append(s)
        pos += len(s)

    if crlf_free_front:
        add("---\nkey: value\n---\n")
    for kind, level, content in blocks:
        if kind == "atx":
            expected.append((pos, level, content))
            add(f"{'#' * level} {content}\n\n")
        elif kind == "setext":
            expected.append((pos, level, content))
            add(f"{content}\n{'=' if level == 1 else '-' * 3}\n\n")
        elif kind == "para":
            add(f"{content}.\n\n")
        else:
            add(f"```\n{'#' * level} {content}\n```\n\n")
    text = "".join(parts)
    if not text.strip():
        return
    doc = md(text)
    from sectionrag.parsers.markdown import find_markdown_headings

    assert find_markdown_headings(text, 19 if crlf_free_front else 0) == expected
    assert [s.start for s in doc.sections] == [e[0] for e in expected]
    assert [s.title for s in doc.sections] == [e[2] for e in expected]
    for s in doc.sections:
        line = text[s.start : text.index("\n", s.start)]
        assert s.title in line
    check_sections(doc)
