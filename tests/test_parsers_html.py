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


def _filing(paragraphs: int = 3) -> str:
    para = (
        '<div><span style="font-weight:400;font-size:10pt">The Company designs and sells devices. '
        "Net sales rose in every segment during the quarter, and margins held steady.</span></div>"
    )
    bold = '<div style="margin-top:12pt"><span style="font-weight:700;font-size:10pt">{}</span></div>'
    return (
        "<html><body>"
        + bold.format("PART I — FINANCIAL INFORMATION")
        + bold.format("Item 1. Financial Statements")
        + para * paragraphs
        + "<table><tr><td><b>Net sales</b></td><td><b>$</b></td><td><b>81,797</b></td></tr>"
        + "<tr><td>Cost of sales</td><td>$</td><td>45,384</td></tr>"
        + '<tr><td><span style="font-weight:bold">Total Number of Shares Purchased</span></td>'
        + '<td><span style="font-weight:bold">Average Price Paid</span></td>'
        + '<td><span style="font-weight:bold">Dollar Value</span></td></tr></table>'
        + '<table><tr><td><span style="font-weight:700">Item 2.</span></td>'
        + '<td><span style="font-weight:700">Management\'s Discussion and Analysis</span></td></tr></table>'
        + para * paragraphs
        + bold.format("Business Seasonality and Product Introductions")
        + para * paragraphs
        + bold.format("PART II — OTHER INFORMATION")
        + bold.format("Item 1A. Risk Factors")
        + para * paragraphs
        + "</body></html>"
    )


def test_a_page_without_h_tags_takes_its_headings_from_bold_lines():
    doc = HtmlParser().parse_text(_filing())
    check_sections(doc)
    assert [(s.level, s.title) for s in doc.sections] == [
        (1, "PART I — FINANCIAL INFORMATION"),
        (2, "Item 1. Financial Statements"),
        (2, "Item 2. Management's Discussion and Analysis"),
        (3, "Business Seasonality and Product Introductions"),
        (1, "PART II — OTHER INFORMATION"),
        (2, "Item 1A. Risk Factors"),
    ]
    assert doc.text[doc.sections[2].start :].startswith("Item 2. | Management's")


def test_a_current_reports_bold_item_titles_ending_in_a_stop_are_headings():
    para = "<p>" + "The company furnished a press release announcing its quarterly results. " * 4 + "</p>"
    items = (
        "Item 2.02 Results of Operations and Financial Condition.",
        "Item 7.01 Regulation FD Disclosure.",
        "Item 9.01. Financial Statements and Exhibits.",
    )
    html = "<html><body>" + "".join(f"<p><b>{item}</b></p>{para * 2}" for item in items) + "</body></html>"
    doc = HtmlParser().parse_text(html)
    check_sections(doc)
    assert [s.title for s in doc.sections] == list(items)


def test_where_most_text_is_bold_bold_sets_nothing_apart():
    html = "".join(f"<p><b>Paragraph {n} says something in bold type</b></p>" for n in range(8))
    html += "<p>One plain line.</p>"
    assert HtmlParser().parse_text(html).sections == ()


def test_larger_type_makes_headings_and_ranks_them():
    html = (
        '<p style="font-size:18pt">User Guide</p>'
        + '<p style="font-size:14px">Some plain text of the guide that runs on for a while here.</p>' * 3
        + '<p style="font-size:14pt">Installing the tool</p>'
        + '<p style="font-size:14px">Some plain text of the guide that runs on for a while here.</p>' * 3
        + '<p style="font-size:14pt">Running it</p>'
        + '<p style="font-size:14px">Some plain text of the guide that runs on for a while here.</p>'
    )
    doc = HtmlParser().parse_text(html)
    assert [(s.level, s.title) for s in doc.sections] == [
        (1, "User Guide"),
        (2, "Installing the tool"),
        (2, "Running it"),
    ]


def test_h_tags_when_present_are_the_only_headings():
    html = "<h2>Overview</h2><p>Text here.</p>" + _filing()
    assert [s.title for s in HtmlParser().parse_text(html).sections] == ["Overview"]


@pytest.mark.parametrize(
    ("label", "codec", "title"),
    [
        ("iso-8859-1", "cp1252", "Caf\u00e9 \u201cquotes\u201d \u2013 \u20ac5"),  # browsers read cp1252
        ("gb2312", "gb18030", "\u56fe\u4e66\u9986 \u2014 \u5e74\u5ea6"),
        ("shift_jis", "cp932", "\u56f3\u66f8\u9928\uff5e\u5e74\u6b21"),  # a tilde only cp932 has
    ],
)
def test_a_charset_label_reads_as_browsers_read_it(tmp_path: Path, label: str, codec: str, title: str):
    html = f'<html><head><meta charset="{label}"></head><body><h1>{title}</h1><p>x</p></body></html>'
    path = tmp_path / "page.html"
    path.write_bytes(html.encode(codec))
    doc = sectionrag.parse(path)
    assert doc.sections[0].title == title and doc.metadata["encoding"] == codec


def test_a_byte_the_browser_encoding_lacks_falls_back_to_the_label(tmp_path: Path):
    # 0x81 is undefined in cp1252 (what browsers read iso-8859-1 as); ISO-8859-1 has it
    body = "Café crème brûlée à la française, déjà vu, naïve, été \u0081."
    html = f'<html><head><meta charset="iso-8859-1"></head><body><h1>Menú</h1><p>{body}</p></body></html>'
    path = tmp_path / "page.html"
    path.write_bytes(html.encode("latin-1"))
    doc = sectionrag.parse(path)
    assert body in doc.text and doc.metadata["encoding"] == "iso-8859-1"
