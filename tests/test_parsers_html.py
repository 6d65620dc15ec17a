from __future__ import annotations

from pathlib import Path

import pytest

import sectionrag
from _section_checks import check_sections
from sectionrag.errors import ParseError
from sectionrag.parsers.html import HtmlParser

PAGE = """<!DOCTYPE html><html><head><title>Annual &amp; Report</title>
<style>h1 { color: red }</style><script>var s = "<h1>not a heading</h1>";</script></head>
<body><nav><a href="/">Home</a><h2>Menu</h2></nav><header><h1>Site name</h1></header>
<main>
<h1>Item 1. Business</h1><p>We make   things &mdash; caf&eacute; &#8364;5.</p>
<h2>Products</h2><p>Widgets.<br>More widgets</p>
<table><tr><th>Year</th><th>Revenue</th></tr><tr><td>2024</td><td>$4.2 <b>bn</b></td></tr></table>
<h3 hidden>Hidden</h3><div aria-hidden="true">invisible</div>
<pre>code
  block</pre>
<h3>Details <em>here</em></h3><p>Text.</p>
<h1>Item 1A. Risk Factors</h1><ul><li>one</li><li>two</li></ul>
</main><footer>(c) 2024 ACME</footer></body></html>"""


def test_sections_text_tables_and_entities():
    doc = HtmlParser().parse_text(PAGE)
    check_sections(doc)
    assert [(s.level, s.title) for s in doc.sections] == [
        (1, "Item 1. Business"),
        (2, "Products"),
        (3, "Details here"),
        (1, "Item 1A. Risk Factors"),
    ]
    assert doc.sections[2].path == ("Item 1. Business", "Products", "Details here")
    text = doc.text
    for gone in ("not a heading", "Menu", "Home", "Site name", "(c) 2024", "invisible", "Hidden", "color"):
        assert gone not in text
    assert "We make things \u2014 caf\u00e9 \u20ac5." in text
    assert "Year | Revenue\n2024 | $4.2 bn" in text
    assert "code\n  block" in text
    assert doc.metadata["title"] == "Annual & Report"
    for s in doc.sections:
        assert text[s.start :].startswith(s.title.split()[0])


def test_non_utf8_html_with_meta_charset(tmp_path: Path):
    html = (
        '<html><head><meta charset="windows-1252"></head>'
        "<body><h1>Caf\u00e9 \u201cquotes\u201d</h1><p>x</p></body></html>"
    )
    path = tmp_path / "legacy.html"
    path.write_bytes(html.encode("cp1252"))
    doc = sectionrag.parse(path)
    assert doc.sections[0].title == "Caf\u00e9 \u201cquotes\u201d"
    path.write_bytes(html.replace('<meta charset="windows-1252">', "").encode("cp1252"))
    assert sectionrag.parse(path).sections[0].title == "Caf\u00e9 \u201cquotes\u201d"  # fallback without meta
    path.write_bytes('<html><meta charset="shift_jis"><h1>\u65e5\u672c</h1></html>'.encode("shift_jis"))
    assert sectionrag.parse(path).sections[0].title == "\u65e5\u672c"


def test_empty_and_invisible_html(tmp_path: Path):
    path = tmp_path / "blank.html"
    path.write_text("<html><body><script>x()</script></body></html>")
    with pytest.raises(ParseError, match=r"blank\.html.*no visible text"):
        sectionrag.parse(path)
    path.write_text("")
    with pytest.raises(ParseError, match=r"blank\.html.*empty"):
        sectionrag.parse(path)


def test_malformed_html_still_parses():
    doc = HtmlParser().parse_text("<h1>Open heading<p>para <b>bold<h2>Second</h2> tail")
    assert [s.title for s in doc.sections][-1] == "Second"
    check_sections(doc)


def test_html_detected_by_content(tmp_path: Path):
    path = tmp_path / "page.txt"
    path.write_text("<!DOCTYPE html><html><body><h1>T</h1><p>x</p></body></html>")
    assert sectionrag.parse(path).metadata["format"] == "html"
