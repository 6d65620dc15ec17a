"""Adapters to other frameworks: an MCP server, LangChain and LlamaIndex.

Each lives in its own module and imports its framework when that module is
imported, never on ``import sectionrag`` or ``import sectionrag.integrations``:

- :mod:`sectionrag.integrations.mcp`: an MCP server over one collection
  (``pip install "sectionrag[mcp]"``; ``sectionrag mcp --db DIR``);
- :mod:`sectionrag.integrations.langchain`: ``SectionragRetriever`` and
  ``SectionragTextSplitter`` (``pip install "sectionrag[langchain]"``);
- :mod:`sectionrag.integrations.llama_index`: ``SectionragRetriever`` and
  ``SectionragNodeParser`` (``pip install "sectionrag[llama-index]"``).
"""

from __future__ import annotations

__all__: list[str] = []
