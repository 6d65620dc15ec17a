"""LangChain and LlamaIndex adapters, against the real frameworks.

The retrievers return what ``Pipeline.search`` returns (same chunks, same
order, same scores); the splitters keep exact spans, checked on property-based
texts with repeated passages, headings and CRLF newlines.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sectionrag
from sectionrag.pipeline import Pipeline
from sectionrag.stores import LanceDBStore
from sectionrag.testing import HashEmbedder

lc_core = pytest.importorskip("langchain_core", reason='needs pip install "sectionrag[langchain]"')
pytest.importorskip("langchain_text_splitters", reason='needs pip install "sectionrag[langchain]"')
pytest.importorskip("llama_index.core", reason='needs pip install "sectionrag[llama-index]"')

from langchain_core.documents import Document as LCDocument  # noqa: E402
from langchain_core.retrievers import BaseRetriever as LCBaseRetriever  # noqa: E402
from langchain_text_splitters import TextSplitter as LCTextSplitter  # noqa: E402
from llama_index.core.node_parser import NodeParser as LINodeParser  # noqa: E402
from llama_index.core.retrievers import BaseRetriever as LIBaseRetriever  # noqa: E402
from llama_index.core.schema import Document as LIDocument  # noqa: E402
from llama_index.core.schema import NodeWithScore, TextNode  # noqa: E402

from sectionrag.integrations import langchain as lc  # noqa: E402
from sectionrag.integrations import llama_index as li  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "data"
QUERIES = ("Can I return a product?", "total revenue in fiscal 2025", "chief financial officer")


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    root = tmp_path_factory.mktemp("frameworks")
    shutil.copytree(EXAMPLES, root / "docs")
    emb = HashEmbedder(64)
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", inner="paragraph", size=80, tokenizer=emb),
        embedder=emb,
        store=LanceDBStore(root / "db"),
    )
    assert pipe.ingest([root / "docs"]).ok
    return pipe


def cite(r: Any) -> tuple[str, int, int, float]:
    return (r.source, r.start, r.end, round(r.score, 6))


# -- retrievers ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", [None, "vector", "text", "hybrid"])
def test_langchain_retriever_returns_the_pipeline_results(pipeline: Pipeline, mode: str | None) -> None:
    retriever = lc.SectionragRetriever(pipeline=pipeline, k=4, mode=mode)
    assert isinstance(retriever, LCBaseRetriever)
    for query in QUERIES:
        expected = pipeline.search(query, k=4, **({} if mode is None else {"mode": mode}))
        docs = retriever.invoke(query)
        assert all(isinstance(d, LCDocument) for d in docs)
        got = [
            (
                d.metadata["source"],
                d.metadata["start_index"],
                d.metadata["end_index"],
                round(d.metadata["score"], 6),
            )
            for d in docs
        ]
        assert got == [cite(r) for r in expected]
        for d, r in zip(docs, expected, strict=True):
            assert d.page_content == r.text and d.id == r.chunk_id
            assert d.metadata["section_path"] == list(r.section_path)
            assert d.metadata["section"] == " > ".join(r.section_path)
            assert (d.metadata["page_start"], d.metadata["page_end"], d.metadata["rank"]) == (
                r.page_start,
                r.page_end,
                r.rank,
            )


def test_langchain_retriever_filters_and_batches(pipeline: Pipeline) -> None:
    name = "harbor_outfitters_customer_policies.md"
    retriever = lc.SectionragRetriever(pipeline=pipeline, k=3, where={"source": name})
    assert {Path(d.metadata["source"]).name for d in retriever.invoke("revenue")} == {name}
    batched = retriever.batch(list(QUERIES))
    assert [[d.id for d in docs] for docs in batched] == [
        [d.id for d in retriever.invoke(q)] for q in QUERIES
    ]


@pytest.mark.parametrize("mode", [None, "text", "hybrid"])
def test_llama_index_retriever_returns_the_pipeline_results(pipeline: Pipeline, mode: str | None) -> None:
    retriever = li.SectionragRetriever(pipeline=pipeline, k=4, mode=mode)  # type: ignore[arg-type]
    assert isinstance(retriever, LIBaseRetriever)
    for query in QUERIES:
        expected = pipeline.search(query, k=4, **({} if mode is None else {"mode": mode}))
        hits = retriever.retrieve(query)
        assert all(isinstance(h, NodeWithScore) and isinstance(h.node, TextNode) for h in hits)
        got = [
            (h.node.metadata["source"], h.node.start_char_idx, h.node.end_char_idx, round(h.score or 0, 6))
            for h in hits
        ]
        assert got == [cite(r) for r in expected]
        for h, r in zip(hits, expected, strict=True):
            assert h.node.get_content() == r.text and h.node.node_id == r.chunk_id
            assert h.node.ref_doc_id == r.doc_id
            assert h.node.metadata["section"] == " > ".join(r.section_path)
            assert "chunk_id" not in h.node.get_content(metadata_mode="llm")  # type: ignore[arg-type]


@pytest.mark.parametrize("max_chars", [1, 600, 3000])
def test_both_retrievers_fill_a_budget_of_characters_as_the_pipeline_does(
    pipeline: Pipeline, max_chars: int
) -> None:
    langchain = lc.SectionragRetriever(pipeline=pipeline, max_chars=max_chars)
    llama = li.SectionragRetriever(pipeline=pipeline, max_chars=max_chars)
    for query in QUERIES:
        expected = [cite(r) for r in pipeline.search(query, max_chars=max_chars)]
        assert expected and (len(expected) > 1 or max_chars < 3000)
        docs = langchain.invoke(query)
        meta = [d.metadata for d in docs]
        got = [(m["source"], m["start_index"], m["end_index"], round(m["score"], 6)) for m in meta]
        assert got == expected
        assert sum(len(d.page_content) for d in docs) <= max_chars or len(docs) == 1
        hits = llama.retrieve(query)
        assert [
            (h.node.metadata["source"], h.node.start_char_idx, h.node.end_char_idx, round(h.score or 0, 6))
            for h in hits
        ] == expected


# -- splitters ----------------------------------------------------------------------

TEXT = (EXAMPLES / "harbor_outfitters_customer_policies.md").read_text(encoding="utf-8")


def chunker() -> Any:
    return sectionrag.chunker("section", inner="paragraph", size=40)


def test_langchain_splitter_keeps_spans_and_sections() -> None:
    splitter = lc.SectionragTextSplitter(chunker=chunker())
    assert isinstance(splitter, LCTextSplitter)
    docs = splitter.split_documents(
        [LCDocument(page_content=TEXT, metadata={"source": "policies.md", "lang": "en"})]
    )
    assert len(docs) > 3
    for d in docs:
        assert TEXT[d.metadata["start_index"] : d.metadata["end_index"]] == d.page_content
        assert d.metadata["lang"] == "en" and d.metadata["source"] == "policies.md"
    assert ["Harbor Outfitters Customer Policies", "Refund Policy"] in [
        d.metadata["section_path"] for d in docs
    ]
    # a text without a source has no name to lead its chunks' headers (which count in the size)
    assert splitter.split_text(TEXT) == [d.page_content for d in splitter.create_documents([TEXT])]
    by_name = lc.SectionragTextSplitter("section", inner="paragraph", size=40)
    named = by_name.create_documents([TEXT], metadatas=[{"source": "policies.md", "lang": "en"}])
    assert [d.page_content for d in named] == [d.page_content for d in docs]


def test_llama_index_node_parser_keeps_spans_and_sections() -> None:
    parser = li.SectionragNodeParser(chunker=chunker())
    assert isinstance(parser, LINodeParser)
    doc = LIDocument(text=TEXT, metadata={"file_name": "policies.md"})
    nodes = parser.get_nodes_from_documents([doc])
    assert len(nodes) > 3
    for n in nodes:
        assert isinstance(n, TextNode) and n.start_char_idx is not None and n.end_char_idx is not None
        assert TEXT[n.start_char_idx : n.end_char_idx] == n.text
        assert n.ref_doc_id == doc.doc_id and n.metadata["file_name"] == "policies.md"
    assert "Harbor Outfitters Customer Policies > Refund Policy" in [n.metadata["section"] for n in nodes]


RST = (
    "=======\nManual\n=======\n\nIntro text here.\n\nInstall\n=======\n\nRun the installer.\n\n"
    "From source\n-----------\n\nBuild it with make.\n"
)


def test_rst_sources_take_their_titles() -> None:
    docs = lc.SectionragTextSplitter(chunker=chunker()).create_documents(
        [RST], metadatas=[{"source": "guide.rst"}]
    )
    assert ["Manual", "Install", "From source"] in [d.metadata["section_path"] for d in docs]
    nodes = li.SectionragNodeParser(chunker=chunker()).get_nodes_from_documents(
        [LIDocument(text=RST, metadata={"file_name": "guide.rst"})]
    )
    assert "Manual > Install > From source" in [n.metadata["section"] for n in nodes]
    # a text without a name says its markup with structure="rst"
    named = lc.SectionragTextSplitter(chunker=chunker(), structure="rst").create_documents([RST])
    assert ["Manual", "Install", "From source"] in [d.metadata["section_path"] for d in named]


def test_a_passage_repeated_inside_the_previous_chunk_keeps_its_own_span() -> None:
    text = "Go now.\n\nnow."  # searching for "now." after the first chunk's start finds offset 3
    strategy = sectionrag.chunker("paragraph", size=3)
    nodes = li.SectionragNodeParser(chunker=strategy).get_nodes_from_documents([LIDocument(text=text)])
    assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [(0, 7), (9, 13)]  # type: ignore[attr-defined]
    docs = lc.SectionragTextSplitter(chunker=strategy).create_documents([text])
    assert [(d.metadata["start_index"], d.metadata["end_index"]) for d in docs] == [(0, 7), (9, 13)]


# Property: repeated passages (where searching for a chunk's text finds the wrong copy), headings and CRLF.
words = st.sampled_from(
    ["alpha", "beta", "gamma", "delta", "Refunds", "are", "paid.", "Orders", "ship", "fast."]
)
sentences = st.lists(words, min_size=1, max_size=12).map(lambda ws: " ".join(ws))
paragraphs = st.lists(sentences, min_size=1, max_size=4).map(lambda ss: " ".join(ss))
blocks = st.one_of(
    paragraphs, st.sampled_from(["# Title", "## Refund Policy", "### Notes", "NOTES", "1. Scope"])
)


@st.composite
def texts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(blocks, min_size=1, max_size=12))
    parts = parts + draw(st.lists(st.sampled_from(parts), max_size=4))  # repeat some blocks verbatim
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return (newline * 2).join(parts) + draw(st.sampled_from(["", "\n", "  "]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=texts(),
    structure=st.sampled_from(["auto", "markdown", "rst", "text", "none"]),
    size=st.integers(3, 40),
)
def test_splitters_round_trip_offsets(text: str, structure: str, size: int) -> None:
    strategy = sectionrag.chunker("section", inner="sentence", size=size)
    lc_docs = lc.SectionragTextSplitter(chunker=strategy, structure=structure).create_documents([text])  # type: ignore[arg-type]
    for d in lc_docs:
        assert text[d.metadata["start_index"] : d.metadata["end_index"]] == d.page_content
    nodes = li.SectionragNodeParser(chunker=strategy, structure=structure).get_nodes_from_documents(  # type: ignore[arg-type]
        [LIDocument(text=text)]
    )
    for n in nodes:
        assert isinstance(n, TextNode)
        assert text[n.start_char_idx : n.end_char_idx] == n.text
    assert [(d.metadata["start_index"], d.metadata["end_index"]) for d in lc_docs] == [
        (n.start_char_idx, n.end_char_idx)
        for n in nodes  # type: ignore[attr-defined]
    ]


def test_adapters_import_their_framework_only_when_imported() -> None:
    code = (
        "import sys, sectionrag, sectionrag.integrations; "
        "print([m for m in ('langchain_core', 'llama_index', 'mcp') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
