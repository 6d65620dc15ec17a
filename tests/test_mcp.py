"""``sectionrag mcp``: the real server in a subprocess, driven by the MCP SDK's own stdio client.

One server per module (it loads the packaged MiniLM once); each step below
is a call an assistant would make. The tools are also called directly
(``SectionragTools``) on a fake-embedder collection for the cases that need
no model.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag.pipeline import Pipeline
from sectionrag.stores import LanceDBStore
from sectionrag.testing import HashEmbedder

pytest.importorskip("mcp", reason='needs pip install "sectionrag[mcp]"')

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.server.mcpserver.exceptions import ToolError

from sectionrag.integrations.mcp import SectionragTools, create_server

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "data"
POLICIES = "harbor_outfitters_customer_policies.md"
TOOLS = {"index", "search", "outline", "read_section", "list_documents"}


def server_params(tmp_path: Path) -> StdioServerParameters:
    src = str(Path(sectionrag.__file__).resolve().parents[1])  # the code under test
    env = {
        "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    if "HOME" in os.environ:
        env["HOME"] = os.environ["HOME"]
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "sectionrag", "mcp", "--db", str(tmp_path / "db"), "--embedder", "minilm"],
        env=env,
        cwd=str(tmp_path),
    )


def text_of(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


@pytest.mark.model
@pytest.mark.slow
def test_an_mcp_client_lists_indexes_searches_and_reads(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES, tmp_path / "docs")
    seen: dict[str, Any] = {}

    async def session_steps() -> None:
        with anyio.fail_after(240):
            async with (
                stdio_client(server_params(tmp_path)) as (read, write),
                ClientSession(read, write) as s,
            ):
                await s.initialize()
                listed = await s.list_tools()
                seen["tools"] = {t.name: t for t in listed.tools}
                seen["index"] = await s.call_tool(
                    "index", {"paths": ["docs"]}
                )  # relative to the server's cwd
                seen["search"] = await s.call_tool("search", {"query": "Can I return a product?", "k": 3})
                seen["text"] = await s.call_tool(
                    "search", {"query": "refund", "mode": "text", "sources": [POLICIES], "k": 2}
                )
                seen["budget"] = await s.call_tool(
                    "search", {"query": "Can I return a product?", "max_chars": 700}
                )
                seen["outline"] = await s.call_tool("outline", {"source": POLICIES})
                seen["read"] = await s.call_tool(
                    "read_section", {"source": POLICIES, "section": "Refund Policy"}
                )
                seen["malformed"] = await s.call_tool("search", {"k": "many"})
                seen["unknown"] = await s.call_tool("read_section", {"source": POLICIES, "section": "Nope"})
                seen["after"] = await s.call_tool("list_documents", {})

    anyio.run(session_steps)

    tools = seen["tools"]
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and tool.input_schema["type"] == "object"
    assert tools["search"].input_schema["required"] == ["query"]
    assert tools["search"].input_schema["properties"]["k"]["anyOf"][0]["maximum"] == 50
    assert tools["search"].annotations.read_only_hint is True

    index = seen["index"]
    assert not index.is_error
    assert len(index.structured_content["added"]) == 2 and index.structured_content["chunks"] > 10

    hits = seen["search"].structured_content["results"]
    assert len(hits) == 3 and hits[0]["source"].endswith(POLICIES)
    assert hits[0]["section_path"][-1] in ("Refund Policy", "Items That Cannot Be Returned")
    for hit in hits:
        assert {"text", "source", "section_path", "page_start", "page_end", "start", "end", "score"} <= set(
            hit
        )
        assert (tmp_path / hit["source"]).read_text(encoding="utf-8")[hit["start"] : hit["end"]] == hit[
            "text"
        ]
    budget = seen["budget"].structured_content["results"]
    assert budget and (sum(len(h["text"]) for h in budget) <= 700 or len(budget) == 1)
    assert [h["text"] for h in budget] == [h["text"] for h in hits][: len(budget)]
    assert tools["search"].input_schema["properties"]["max_chars"]["anyOf"][0]["minimum"] == 1
    text_hits = seen["text"].structured_content
    assert text_hits["mode"] == "text" and all(h["source"].endswith(POLICIES) for h in text_hits["results"])

    outline = seen["outline"].structured_content
    top = outline["sections"][0]
    assert top["title"] == "Harbor Outfitters Customer Policies"
    assert "Refund Policy" in [c["title"] for c in top["children"]]

    read = seen["read"].structured_content
    assert read["text"].startswith("## Refund Policy") and "30 days" in read["text"]
    assert read["path"] == ["Harbor Outfitters Customer Policies", "Refund Policy"] and not read["truncated"]

    malformed = seen["malformed"]
    assert malformed.is_error and "query" in text_of(malformed)
    unknown = seen["unknown"]
    assert unknown.is_error and "no section 'Nope'" in text_of(unknown)
    after = seen["after"]
    assert not after.is_error and len(after.structured_content["documents"]) == 2  # still serving


# -- the tools without MCP's transport (a fake embedder, no model) -------------------------


@pytest.fixture
def tools(tmp_path: Path) -> SectionragTools:
    shutil.copytree(EXAMPLES, tmp_path / "docs")
    emb = HashEmbedder(64)
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", inner="paragraph", tokenizer=emb),
        embedder=emb,
        store=LanceDBStore(tmp_path / "db"),
    )
    return SectionragTools(pipe, root=tmp_path)


def test_tools_report_what_went_wrong_as_tool_errors(tools: SectionragTools, tmp_path: Path) -> None:
    with pytest.raises(ToolError, match=r"no such file or directory: .*missing\.md"):
        tools.index(["docs", "missing.md"])
    assert len(tools.index(["docs"]).added) == 2
    with pytest.raises(ToolError, match=r"no indexed document matches 'other\.pdf'"):
        tools.outline("other.pdf")
    with pytest.raises(ToolError, match="no indexed document matches"):
        tools.search("refund", sources=["other.pdf"])
    (tmp_path / "docs" / POLICIES).write_text("# Changed\n\nNew text.\n", encoding="utf-8")
    with pytest.raises(ToolError, match="changed since it was indexed"):
        tools.read_section(POLICIES, "Refund Policy")
    tools.index(["docs"])
    assert tools.outline(POLICIES).sections[0].title == "Changed"


def test_search_fills_a_budget_of_characters_as_the_pipeline_does(tools: SectionragTools) -> None:
    tools.index(["docs"])
    for budget in (1, 500, 4000):
        got = tools.search("refund for a damaged order", max_chars=budget).results
        expected = tools.pipeline.search("refund for a damaged order", max_chars=budget)
        assert [(h.source, h.start, h.end) for h in got] == [(r.source, r.start, r.end) for r in expected]
        assert got and (sum(len(h.text) for h in got) <= budget or len(got) == 1)
    assert len(tools.search("refund", k=2, max_chars=100_000).results) == 2


def test_read_section_by_title_path_or_suffix(tools: SectionragTools) -> None:
    tools.index(["docs"])
    by_title = tools.read_section(POLICIES, "items that cannot be returned")
    by_path = tools.read_section(
        POLICIES, "Harbor Outfitters Customer Policies > Refund Policy > Items That Cannot Be Returned"
    )
    by_tail = tools.read_section(POLICIES, "Refund Policy > Items That Cannot Be Returned")
    assert by_title == by_path == by_tail
    # a document is named as list_documents shows it, by its file name or by its path from the root
    assert tools.outline(f"docs/{POLICIES}") == tools.outline(POLICIES) == tools.outline(f"./docs/{POLICIES}")
    cut = tools.read_section(POLICIES, "Refund Policy", max_chars=100)
    assert cut.truncated and len(cut.text) == 100


def test_search_filters_by_section_and_lists_documents(tools: SectionragTools) -> None:
    tools.index(["docs"])
    hits = tools.search("orders", section="Shipping Policy", mode="text").results
    assert hits and all("Shipping Policy" in h.section_path for h in hits)
    listing = tools.list_documents()
    assert listing.chunks == sum(d.chunks for d in listing.documents) and len(listing.documents) == 2


def test_server_registers_the_five_tools(tools: SectionragTools) -> None:
    server = create_server(tools.pipeline)
    listed = anyio.run(server.list_tools)
    assert {t.name for t in listed} == TOOLS
    assert all(t.output_schema for t in listed)  # structured results
