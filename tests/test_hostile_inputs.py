"""Single hostile or careless inputs at the parser level: each parses, or is refused at once and clearly.

Through the CLI where a user meets them (``sectionrag parse`` / ``chunk`` / ``index``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag import Document
from sectionrag.chunkers import FixedChunker, SemanticChunker
from sectionrag.cli import main
from sectionrag.errors import ConfigError, ParseError
from sectionrag.parsers.html import HtmlParser
from sectionrag.parsers.markdown import MAX_FRONT_MATTER, MarkdownParser
from sectionrag.parsers.pdf import PdfParser
from sectionrag.parsers.text import TextParser
from sectionrag.testing import HashEmbedder

DATA = Path(__file__).parent / "data"
ENCRYPTED = DATA / "pdf" / "encrypted.pdf"
PASSWORD = "user"  # the user password of tests/data/pdf/encrypted.pdf


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- front matter ------------------------------------------------------------------------------


def test_front_matter_with_a_5000_digit_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "big.md"
    p.write_text("---\nid: " + "7" * 5000 + "\ntitle: Big\ncount: 42\n---\n# Heading\n\nBody.\n", "utf-8")
    code, out, _ = cli(capsys, "parse", str(p), "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["metadata"]["id"] == "7" * 5000  # an identifier, kept as it is written
    assert doc["metadata"]["title"] == "Big" and doc["metadata"]["count"] == 42
    assert [s["title"] for s in doc["sections"]] == ["Heading"]


def test_front_matter_nested_3000_levels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    p = tmp_path / "deep.md"
    p.write_text("---\ntags: " + "[" * 3000 + "a" + "]" * 3000 + "\n---\n# Heading\n\nBody text.\n", "utf-8")
    with caplog.at_level(logging.WARNING, logger="sectionrag"):
        code, out, _ = cli(capsys, "parse", str(p), "--json")
    assert code == 0
    tags = json.loads(out)["metadata"]["tags"]
    assert isinstance(tags, str) and tags.startswith("[[[")  # kept as the string it is
    assert str(p) in caplog.text and "kept as a string" in caplog.text
    code, out, _ = cli(capsys, "chunk", str(p), "--strategy", "sentence", "--json")
    assert code == 0 and json.loads(out)["chunks"][0]["text"].startswith("# Heading")


def test_front_matter_lists_nest_and_split_at_their_own_commas() -> None:
    doc = MarkdownParser().parse_text("---\ntags: [a, [b, c], 'd, e']\nbig: 1e999\n---\nBody.\n")
    assert doc.metadata["tags"] == ["a", ["b", "c"], "d, e"]
    assert doc.metadata["big"] == "1e999"  # not a finite number: kept as written


def test_oversized_front_matter_stays_text(caplog: pytest.LogCaptureFixture) -> None:
    text = "---\nnote: " + "x" * MAX_FRONT_MATTER + "\n---\n# Heading\n\nBody.\n"
    with caplog.at_level(logging.WARNING, logger="sectionrag"):
        doc = MarkdownParser().parse_text(text, source="huge.md")
    assert "note" not in doc.metadata and doc.body_start == 0
    assert "huge.md" in caplog.text and "kept as text" in caplog.text


# -- the format comes from the extension unless the content says it cannot be -------------------


@pytest.mark.parametrize(
    "text",
    [
        "# PDF notes\n\nEvery file starts with %PDF-1.7 and ends with %%EOF.\n",
        "%PDF-1.7 opens every PDF file.\n\n# Header\n\nText.\n",
    ],
)
def test_markdown_that_mentions_a_pdf_header_is_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    p = tmp_path / "notes.md"
    p.write_text(text, encoding="utf-8")
    code, out, _ = cli(capsys, "parse", str(p), "--json")
    assert code == 0 and json.loads(out)["metadata"]["format"] == "markdown"


def test_a_real_pdf_with_a_text_extension_is_still_a_pdf(tmp_path: Path) -> None:
    pdf = next(p for p in sorted((DATA / "pdf").glob("*.pdf")) if p.name != ENCRYPTED.name)
    copy = tmp_path / "report.txt"
    shutil.copy(pdf, copy)
    assert sectionrag.parse(copy).metadata["format"] == "pdf"


# -- decoding ----------------------------------------------------------------------------------

TEXT = "Caf\u00e9 r\u00e9sum\u00e9 \u65e5\u672c\u8a9e na\u00efve. Second sentence here.\n"


def test_one_invalid_byte_is_replaced_not_the_whole_file_latin1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    data = TEXT.encode("utf-8")
    cut = data.index(b" r")
    p = tmp_path / "damaged.txt"
    p.write_bytes(data[:cut] + b"\xff" + data[cut:])
    with caplog.at_level(logging.WARNING, logger="sectionrag"):
        doc = sectionrag.parse(p)
    assert doc.text == TEXT.replace(" r", "\ufffd r", 1)
    assert "\u00c3" not in doc.text  # no mojibake
    assert doc.metadata["encoding"] == "utf-8" and doc.metadata["decode_errors"] == 1
    assert str(p) in caplog.text and "1 invalid UTF-8" in caplog.text
    for c in sectionrag.chunker("sentence", size=4).chunk(doc):  # offsets stay exact
        assert doc.text[c.start : c.end] == c.text
    code, out, _ = cli(capsys, "chunk", str(p), "--strategy", "sentence", "--json")
    assert code == 0 and "\ufffd" in json.loads(out)["chunks"][0]["text"]


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Caf\u00e9 r\u00e9sum\u00e9 na\u00efve \u2013 \u201cquoted\u201d \u20ac5.\n", "cp1252"),
        ("Stra\u00dfe und \u00c4pfel \u0081.\n", "latin-1"),  # 0x81: undefined in cp1252
    ],
)
def test_real_legacy_files_still_decode(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, text: str, encoding: str
) -> None:
    p = tmp_path / "legacy.txt"
    p.write_bytes(text.encode(encoding))
    with caplog.at_level(logging.WARNING, logger="sectionrag"):
        doc = sectionrag.parse(p)
    assert doc.text == text and doc.metadata["encoding"] == encoding
    assert "decode_errors" not in doc.metadata and caplog.text == ""


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"# T\r\n\r\nBody one.\r\nBody two.\r\n", "# T\n\nBody one.\nBody two.\n"),
        (b"# T\r\rBody one.\rBody two.\r", "# T\n\nBody one.\nBody two.\n"),
        (b"\xef\xbb\xbf# T\n\nBody.\n", "# T\n\nBody.\n"),
        ("# T\n\nBody.\n".encode("utf-16"), "# T\n\nBody.\n"),
    ],
)
def test_newlines_and_byte_order_marks(tmp_path: Path, data: bytes, text: str) -> None:
    p = tmp_path / "x.md"
    p.write_bytes(data)
    doc = sectionrag.parse(p)
    assert doc.text == text and [s.title for s in doc.sections] == ["T"]
    assert all(doc.text[c.start : c.end] == c.text for c in sectionrag.chunker("sentence").chunk(doc))


def test_nul_bytes_are_refused_as_binary(tmp_path: Path) -> None:
    p = tmp_path / "x.md"
    p.write_bytes(b"# Title\n\nsome\x00text\n")
    with pytest.raises(ParseError, match="binary"):
        sectionrag.parse(p)


def test_lone_surrogates_in_api_text_become_replacement_characters() -> None:
    doc = Document.create("Broken \ud800 text. Next sentence.")
    assert doc.text == "Broken \ufffd text. Next sentence."
    chunks = sectionrag.chunker("sentence").chunk(doc)
    assert [c.text for c in chunks] == [doc.text]


def test_pdf_accents_set_as_glyphs_of_their_own_join_their_letters(tmp_path: Path) -> None:
    # TeX's old fonts set an accent as a glyph before its letter ("P\u00b4agina") and a cedilla
    # after it ("c\u00b8"): the text reads "P\u00e1gina", "Introdu\u00e7ao"; an acute used as an
    # apostrophe ("it\u00b4s") stays, and so does a mark standing alone
    from _pdfgen import Line, Page, write_pdf

    lines = [
        Line("1 P\u00b4agina inicial", y=720, size=14, bold=True),
        Line("Schr\u00a8odinger said it\u00b4s fine: Introduc\u00b8ao, a\u02dcno, \u00b4 alone.", y=690),
    ]
    doc = PdfParser(use_outline=False).parse(write_pdf(tmp_path / "accents.pdf", [Page(lines)]))
    assert "1 P\u00e1gina inicial" in doc.text
    assert "Schr\u00f6dinger said it\u00b4s fine: Introdu\u00e7ao, a\u00f1o, \u00b4 alone." in doc.text
    assert [s.title for s in doc.sections] == ["1 P\u00e1gina inicial"]


def test_pdf_characters_beyond_the_basic_plane_keep_their_text(caplog: pytest.LogCaptureFixture) -> None:
    # an ACM paper's math italic letters (U+1D465 and kin) are surrogate pairs in pdfium's text:
    # each comes out as its one character, not as two replacement characters
    with caplog.at_level(logging.WARNING):
        doc = PdfParser().parse(DATA / "pdf" / "acm-sample-acmsmall.pdf")
    assert "\ufffd" not in doc.text
    assert {"\U0001d465", "\U0001d70b"} <= set(doc.text)  # math italic x, pi
    assert "lone surrogate" not in caplog.text
    chunks = sectionrag.chunker("sentence").chunk(doc)
    assert any("\U0001d465" in c.text for c in chunks)
    assert all(doc.text[c.start : c.end] == c.text for c in chunks)


# -- special files ----------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    # in a child process with a timeout, so that a regression fails instead of hanging the suite
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "sectionrag", "parse", str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 1
    assert "FIFO" in done.stderr and "Traceback" not in done.stderr
    parsers = (sectionrag.parse, TextParser().parse, MarkdownParser().parse, HtmlParser().parse)
    for parse in (*parsers, PdfParser().parse):
        with pytest.raises(ParseError, match="not a regular file"):
            parse(fifo)


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_devices_are_refused(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    for parse in (sectionrag.parse, PdfParser().parse):
        with pytest.raises(ParseError, match="character device"):
            parse(device)


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets on this platform")
def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.md"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        with pytest.raises(ParseError, match="socket"):
            sectionrag.parse(path)


# -- argument types ---------------------------------------------------------------------------


def test_parse_checks_its_argument_types(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    p.write_text("# A\n\nbody\n", encoding="utf-8")
    with pytest.raises(TypeError, match="password must be str or None, not int"):
        sectionrag.parse(p, password=123)
    with pytest.raises(TypeError, match="use_outline must be bool"):
        sectionrag.parse(p, use_outline="no")
    with pytest.raises(TypeError, match="expects a path"):
        sectionrag.parse(123)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="unknown parse option"):
        sectionrag.parse(p, passwrd="x")
    with pytest.raises(TypeError, match="name must be a string"):
        MarkdownParser().parse(p, name=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="drop_page_chrome must be a bool"):
        HtmlParser(drop_page_chrome="yes")  # type: ignore[arg-type]


def test_chunker_checks_its_argument_types() -> None:
    with pytest.raises(ConfigError, match="size must be an integer, not float"):
        sectionrag.chunker("fixed", size=2.5)
    with pytest.raises(ConfigError, match="size must be an integer"):
        FixedChunker(size=True)
    with pytest.raises(ConfigError, match="overlap must be an integer"):
        sectionrag.chunker("overlap", size=10, overlap=2.0)
    with pytest.raises(ConfigError, match="filter_tolerance must be a number"):
        SemanticChunker(filter_tolerance="0.2", embedder=HashEmbedder())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="strategy name"):
        sectionrag.chunker(5)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="unexpected keyword"):
        sectionrag.chunker("fixed", sise=10)


# -- passwords --------------------------------------------------------------------------------


def _no_password(text: str) -> bool:
    return re.search(rf"\b{PASSWORD}\b", text) is None


@pytest.mark.parametrize("command", ["parse", "chunk"])
def test_password_options(
    command: str,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    extra = ["--strategy", "sentence"] if command == "chunk" else []
    code, _, err = cli(capsys, command, str(ENCRYPTED), *extra)
    assert code == 1 and "encrypted" in err
    with caplog.at_level(logging.DEBUG):
        code, out, err = cli(capsys, command, str(ENCRYPTED), *extra, "--password", PASSWORD, "--debug")
    assert code == 0
    assert _no_password(out) and _no_password(err) and _no_password(caplog.text)
    monkeypatch.setenv("PDF_SECRET", PASSWORD)
    code, out, err = cli(capsys, command, str(ENCRYPTED), *extra, "--password-env", "PDF_SECRET", "--json")
    assert code == 0 and _no_password(out) and _no_password(err)
    if command == "chunk":
        assert "Confidential" in json.loads(out)["chunks"][0]["text"]
    code, out, err = cli(capsys, command, str(ENCRYPTED), *extra, "--password", "wrong")
    assert code == 1 and "wrong password" in err and "wrong" not in err.replace("wrong password", "")
    code, _, err = cli(capsys, command, str(ENCRYPTED), *extra, "--password-env", "NO_SUCH_VARIABLE_X")
    assert code == 2 and "NO_SUCH_VARIABLE_X is not set" in err


def test_index_takes_a_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, clean_registry: None
) -> None:
    emb = HashEmbedder()
    # a new collection gets the HashEmbedder; reopened, the collection finds it by its recorded name
    monkeypatch.setattr("sectionrag.cli.index.resolve_embedder", lambda requested, **_: emb)
    sectionrag.register("embedder", emb.name, lambda: emb, replace=True)
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(ENCRYPTED, docs / "secret.pdf")
    (docs / "a.md").write_text("# A\n\nApples grow on trees.\n", encoding="utf-8")
    db = str(tmp_path / "db")
    code, out, _ = cli(capsys, "index", str(docs), "--db", db, "--strategy", "sentence", "--json")
    assert code == 1 and json.loads(out)["failed"][0]["source"].endswith("secret.pdf")
    monkeypatch.setenv("PDF_SECRET", PASSWORD)
    code, out, err = cli(
        capsys,
        "index",
        str(docs),
        "--db",
        db,
        "--strategy",
        "sentence",
        "--password-env",
        "PDF_SECRET",
        "--json",
    )
    report = json.loads(out)
    assert code == 0 and report["failed"] == [] and report["added"] == 1
    assert _no_password(out) and _no_password(err)
    stored = "".join(p.read_bytes().decode("latin-1") for p in Path(db).rglob("*") if p.is_file())
    assert _no_password(stored)  # the collection never records the password


# -- HTML -------------------------------------------------------------------------------------


def test_hostile_html_keeps_its_text() -> None:
    parse = HtmlParser().parse_text
    deep = parse("<p>start</p>" + "<div>" * 20_000 + "deep" + "</div>" * 20_000)
    assert deep.text == "start\n\ndeep"
    table = parse("<table>" + "<tr><td>a</td><td>b</td></tr>" * 5_000 + "</table>")
    assert table.text.split("\n") == ["a | b"] * 5_000
    tail = parse("<p>text</p>" + "<a" * 5_000)
    assert tail.text == "text\n\n" + "<a" * 5_000  # never-closed tags stay text
    marked = parse("<p>one</p><![foo[hidden]]><p>two</p>")
    assert marked.text == "one\n\ntwo"


def test_giant_headings_are_clipped() -> None:
    doc = MarkdownParser().parse_text("# " + "word " * 100_000 + "\n\n## Sub\n\nBody.\n")
    assert len(doc.sections[0].title) <= 200 and doc.sections[0].title.endswith("\u2026")
    assert doc.sections[1].path[1] == "Sub"
    html = HtmlParser().parse_text("<h1>" + "word " * 100_000 + "</h1><p>x</p>")
    assert len(html.sections[0].title) <= 200


# -- long inputs through the CLI ----------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["recursive", "sentence", "paragraph", "fixed"])
def test_chunk_one_megabyte_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], strategy: str) -> None:
    p = tmp_path / "l.txt"
    text = "lorem ipsum dolor sit amet " * 40_000
    p.write_text(text, encoding="utf-8")
    code, out, _ = cli(capsys, "chunk", str(p), "--strategy", strategy, "--json")
    chunks: list[dict[str, Any]] = json.loads(out)["chunks"]
    assert code == 0 and len(chunks) >= 2 * 40_000 * 5 // 512 // 2
    assert all(c["token_count"] <= 512 for c in chunks)
    assert all(text[c["start"] : c["end"]] == c["text"] for c in chunks)
    assert chunks[0]["start"] == 0 and chunks[-1]["end"] == len(text.rstrip())
