from __future__ import annotations

import itertools

import pytest

from sectionrag import Document, PageSpan, Section


def _doc() -> Document:
    text = "intro\n# A\nalpha\n## A1\nbeta\n# B\ngamma\n"
    a = text.index("# A")
    a1 = text.index("## A1")
    b = text.index("# B")
    return Document.create(
        text,
        source="t.md",
        sections=[
            Section("A", 1, ("A",), a, b),
            Section("A1", 2, ("A", "A1"), a1, b),
            Section("B", 1, ("B",), b, len(text)),
        ],
        pages=[PageSpan(1, 0, a1), PageSpan(2, a1, len(text))],
    )


def test_document_id_is_content_hash_and_stable() -> None:
    assert Document.create("abc").id == Document.create("abc", source="x").id
    assert Document.create("abc").id != Document.create("abd").id
    assert Document.create("abc", id="given").id == "given"


def test_section_lookup_and_segments_cover_text() -> None:
    doc = _doc()
    assert doc.section_path_at(0) == ()
    assert doc.section_path_at(doc.text.index("beta")) == ("A", "A1")
    assert doc.section_path_at(doc.text.index("alpha")) == ("A",)
    segs = doc.segments()
    assert segs[0][0] == 0 and segs[-1][1] == len(doc.text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(segs))
    assert [s[2] for s in segs] == [(), ("A",), ("A", "A1"), ("B",)]


def test_make_chunk_fills_path_pages_and_round_trips() -> None:
    doc = _doc()
    start = doc.text.index("alpha")
    end = doc.text.index("gamma") + 5
    c = doc.make_chunk(0, start, end, token_count=3, metadata={"k": 1})
    assert doc.text[c.start : c.end] == c.text
    assert (c.page_start, c.page_end) == (1, 2)
    assert c.section_path == ("A",)
    assert c.metadata["k"] == 1 and c.source == "t.md"
    with pytest.raises(ValueError):
        doc.make_chunk(1, 5, 5, token_count=0)


def test_embed_text_prefixes_context() -> None:
    doc = _doc()
    c = doc.make_chunk(0, 0, 5, token_count=1, context="A > A1")
    assert c.embed_text == "A > A1\nintro" and c.text == "intro"


def test_import_is_light() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sectionrag; "
        "heavy = [m for m in ('torch', 'lancedb', 'sentence_transformers', 'pdfplumber', 'chonkie', "
        "'numpy', 'pyarrow', 'tokenizers', 'langchain_core', 'llama_index', 'mcp') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
