# ruff: noqa: RUF001
# (full-width punctuation is what these tests are about)
"""Chinese and Japanese prose, which sets no spaces between words, is prose to the heading detector.

A line of Chinese is a few spaced tokens however long it runs, so rules that
tell prose from a title by its words (too long for a title; a page of long
lines has a text size of its own) count its characters, two to a word. Where
a document's body size comes from a longer part in another face (a class's
manual in Chinese at 10.5 pt before its code's documentation at 9 pt), its
Chinese pages are judged against their own text, as Latin pages are.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from _pdfgen import WORDS, Line, Page, write_pdf
from sectionrag.parsers.headings import looks_like_sentence, word_count
from sectionrag.parsers.pdf import PdfParser

# sentences of a class's manual (30 characters a line, a full stop inside some of them)
_PROSE = (
    "本文档介绍模板的安装与使用方法。新模板更加稳定，运行效率更高，普适性更强，",
    "用户仅需要通过发行版的管理工具更新模板即可得到更新后的模板，模板更新后再次",
    "编译学位论文即可按最新的格式要求完成排版。关于模板的详细说明，可以阅读其使用",
    "说明书和写作样例进行学习，也可以参阅相关的教学视频和网络上的入门教程进行学习。",
)


def test_spaced_words_count_as_before():
    assert word_count("Item 1A. Risk Factors") == 4
    assert word_count("") == 0
    assert word_count("연구 방법 및 결과") == 4  # Korean spaces its words


def test_chinese_and_japanese_count_two_characters_to_a_word():
    assert word_count("第1章 はじめの一歩") == 1 + 3  # (the digit is no character of theirs)
    assert word_count(_PROSE[0]) == 17  # one token of 35 characters (its commas and stop not counted)
    assert word_count("使用 LATEX 排版") == 3


@given(
    st.lists(
        st.one_of(
            st.sampled_from(WORDS),
            st.text(alphabet="模板安装使用方法はじめ一歩", min_size=1, max_size=40),
        ),
        max_size=12,
    )
)
def test_property_a_line_counts_its_tokens_words_and_no_fewer_than_its_tokens(tokens: list[str]):
    line = " ".join(tokens)
    assert word_count(line) == sum(word_count(t) for t in tokens)
    assert word_count(line) >= len(tokens)


def test_chinese_prose_reads_as_a_sentence_and_a_chinese_title_does_not():
    assert looks_like_sentence(_PROSE[0])  # long, and it ends in a comma
    assert looks_like_sentence("模板更加稳定。同时还构建了")  # a full stop inside the line
    assert looks_like_sentence("即可完成安装。")
    assert not looks_like_sentence("第 2 节 安装")
    assert not looks_like_sentence("本项目的特色与创新之处；")  # an outline's item ends in a semicolon
    assert not looks_like_sentence("LATEX 入门")


def _cjk(text: str, y: float, size: float, *, bold: bool = False) -> Line:
    return Line(text, y=y, size=size, face="GothicBBB-Medium" if bold else "Ryumin-Light", cjk=True)


_TITLES = ("第 1 节 简介", "第 2 节 模板的安装")


def _manual_page(number: int) -> Page:
    """A page of the manual: a section's title at 15 pt over Chinese prose at 10.5 pt."""
    lines = [_cjk(_TITLES[number - 1], 740, 15, bold=True)]
    y = 712.0
    for _ in range(3):
        for text in _PROSE:
            lines.append(_cjk(text, y, 10.5))
            y -= 15.75
        y -= 8
    return Page(lines)


def _code_documentation_page(seed: int) -> Page:
    """A page of the code's documentation in English at 9 pt: more characters than the manual's."""
    lines = [Line(f"{seed}.1 Implementation", y=740, size=12, bold=True, family="Times")]
    y = 716.0
    for i in range(52):
        words = [WORDS[(seed * 7 + i * 5 + k) % len(WORDS)] for k in range(14)]
        lines.append(Line(" ".join(words) + ("." if i % 4 == 3 else ""), y=y, size=9, family="Times"))
        y -= 11
        if i % 4 == 3:
            y -= 4
    return Page(lines)


def test_a_chinese_manual_before_its_code_documentation_keeps_its_prose_out_of_the_headings(tmp_path: Path):
    title = _cjk("学位论文模板使用手册", 600, 24, bold=True)
    cover = Page([title, Line("2024/05/01", x=260, y=560, size=12)])
    pages = [cover, _manual_page(1), _manual_page(2)] + [_code_documentation_page(n) for n in range(3, 9)]
    path = write_pdf(tmp_path / "manual.pdf", pages)
    doc = PdfParser(use_outline=False).parse(path)
    titles = [s.title for s in doc.sections]
    assert titles[:2] == list(_TITLES)
    assert not [t for t in titles if any(t.startswith(p[:8]) for p in _PROSE)]
    implementation = [f"{n}.1 Implementation" for n in range(3, 9)]
    assert [t for t in titles if t.endswith("Implementation")] == implementation
