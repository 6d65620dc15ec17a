from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import sectionrag
from sectionrag.errors import ConfigError, ParseError, UnsupportedFileTypeError
from sectionrag.parsers import detect_kind, get_parser


def test_import_sectionrag_does_not_import_pdf_libraries():
    code = (
        "import sys, sectionrag; sectionrag.parse; "
        "print(sorted(m for m in ('pdfplumber','pypdfium2','pdfminer') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_parse_markdown_and_text(tmp_path: Path):
    md = tmp_path / "a.md"
    md.write_text("# A\n\nbody\n", encoding="utf-8")
    assert [s.title for s in sectionrag.parse(md).sections] == ["A"]
    txt = tmp_path / "a.txt"
    txt.write_text("# A\n\nbody\n", encoding="utf-8")
    assert sectionrag.parse(txt).metadata["format"] == "text"


@pytest.mark.parametrize(
    ("name", "head", "kind"),
    [
        ("x.txt", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", "pdf"),
        ("x.txt", b"%PDF-1.7\n...", "text"),  # a few bytes of text never make a PDF
        ("x.md", b"%PDF-1.7 opens every PDF file.\n", "markdown"),
        ("x.md", b"# Notes\n\nThe header reads %PDF-1.7.\n", "markdown"),
        ("x.pdf", b"junk\n%PDF-1.4\n", "pdf"),  # the PDF parser says what is wrong with it
        ("README", b"%PDF-1.4\n", "pdf"),  # no extension: the content decides
        ("x.md", b"<!DOCTYPE html><html>", "html"),
        ("x.pdf", b"<html><body>", "html"),
        ("x.pdf", b"# Title\n\ntext", "markdown"),
        ("x.pdf", b"just text", "text"),
        ("README", b"plain words", "text"),
        ("x.htm", b"<p>hi</p>", "html"),
        ("x.MD", b"# t", "markdown"),
        ("x.pdf", b"\x00\x01garbage", "pdf"),
    ],
)
def test_detect_kind_trusts_content(name: str, head: bytes, kind: str):
    assert detect_kind(name, head) == kind


@pytest.mark.parametrize(
    ("name", "head"), [("x.docx", b"PK\x03\x04zzz"), ("x.txt", b"PK\x03\x04"), ("x.csv", b"a,b")]
)
def test_unsupported_lists_supported_types(name: str, head: bytes):
    with pytest.raises(UnsupportedFileTypeError, match=r"supported types: .*\.md.*\.pdf"):
        detect_kind(name, head)


def test_extension_lies_text_named_pdf(tmp_path: Path):
    p = tmp_path / "report.pdf"
    p.write_text("# Heading\n\nThis is not a PDF at all.\n", encoding="utf-8")
    doc = sectionrag.parse(p)
    assert doc.metadata["format"] == "markdown"
    assert [s.title for s in doc.sections] == ["Heading"]


def test_missing_file_and_directory(tmp_path: Path):
    with pytest.raises(ParseError, match="no such file"):
        sectionrag.parse(tmp_path / "nope.md")
    with pytest.raises(ParseError, match="is a directory"):
        sectionrag.parse(tmp_path)


def test_get_parser_by_kind_and_extension():
    assert type(get_parser("markdown")).__name__ == "MarkdownParser"
    assert type(get_parser(".txt")).__name__ == "TextParser"
    with pytest.raises(UnsupportedFileTypeError, match="choose one of"):
        get_parser("docx")
    with pytest.raises(ConfigError, match="unknown option"):
        get_parser("text", use_outline=False)


def test_parse_options_routed(tmp_path: Path):
    p = tmp_path / "a.md"
    p.write_text("# A\n", encoding="utf-8")
    assert sectionrag.parse(p, use_outline=False).sections[0].title == "A"
    with pytest.raises(ConfigError, match="unknown parse option"):
        sectionrag.parse(p, bogus=1)
