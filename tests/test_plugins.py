"""A parser, a chunker and an embedder registered from a module outside sectionrag, used by name.

The plug-in module is written into ``tmp_path`` and imported from there, as a
third-party package would be: through ``sys.path`` in this process, through
``SECTIONRAG_PLUGINS`` or an entry point for the command line.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag import registry
from sectionrag.cli import main
from sectionrag.embedders import get_embedder
from sectionrag.errors import ConfigError
from sectionrag.parsers import AutoParser, get_parser
from sectionrag.pipeline import Pipeline
from sectionrag.stores import InMemoryStore

SRC = Path(__file__).resolve().parent.parent / "src"

PLUGIN = textwrap.dedent(
    '''
    """A sectionrag plug-in: INI files, one chunk per line, and a hashing embedder."""

    from __future__ import annotations

    import re
    from pathlib import Path
    from typing import Any

    import sectionrag
    from sectionrag import Document, Section
    from sectionrag.testing import HashEmbedder

    CALLS: list[str] = []


    class IniParser:
        """``[name]`` lines start sections."""

        def parse(self, source: Any, *, name: str | None = None) -> Document:
            CALLS.append("parse")
            if isinstance(source, bytes):
                text, label = source.decode("utf-8"), name or "<bytes>"
            else:
                text, label = Path(source).read_text(encoding="utf-8"), name or str(source)
            heads = [(m.start(), m.group(1)) for m in re.finditer(r"^\\[(.+)\\]$", text, re.MULTILINE)]
            ends = [start for start, _ in heads[1:]] + [len(text)]
            sections = [
                Section(title=title, level=1, path=(title,), start=start, end=end)
                for (start, title), end in zip(heads, ends)
            ]
            return Document.create(text, source=label, sections=sections, metadata={"format": "ini"})


    class LineChunker:
        """One chunk per non-blank line (no base class: the Chunker protocol is enough)."""

        def __init__(self, *, size: int = 512, tokenizer: Any = None) -> None:
            self.size = size
            self.tokenizer = tokenizer

        def chunk(self, document: Document) -> list:
            chunks = []
            for m in re.finditer(r"[^\\n]*\\S[^\\n]*", document.text):
                words = len(m.group().split())
                chunks.append(document.make_chunk(len(chunks), m.start(), m.end(), token_count=words))
            return chunks


    class PlugEmbedder(HashEmbedder):
        """Named as it is registered, so a collection built with it finds it again."""

        def __init__(self, dimension: int = 64) -> None:
            super().__init__(dimension=dimension, name="plug-hash")


    sectionrag.register("parser", "ini", IniParser, extensions=[".ini", ".cfg"])
    sectionrag.register("chunker", "by-line", "sr_plugin_demo:LineChunker")
    sectionrag.register("embedder", "plug-hash", PlugEmbedder)
    '''
)

INI = "[server]\nhost = example.org\nport = 8080\n\n[database]\nengine = lancedb\npath = ./index\n"


@pytest.fixture
def plugin_dir(tmp_path: Path, clean_registry: None) -> Iterator[Path]:
    """A folder holding the plug-in module (not importable until put on the path)."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "sr_plugin_demo.py").write_text(PLUGIN, encoding="utf-8")
    yield folder
    sys.modules.pop("sr_plugin_demo", None)
    sys.modules.pop("sr_plugin_entry", None)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "settings.ini").write_text(INI, encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nThe server listens on port 8080.\n", encoding="utf-8")
    return folder


def _import_plugin(monkeypatch: pytest.MonkeyPatch, plugin_dir: Path) -> Any:
    monkeypatch.syspath_prepend(str(plugin_dir))
    return importlib.import_module("sr_plugin_demo")


def test_plugin_stages_work_through_a_pipeline_by_name(
    monkeypatch: pytest.MonkeyPatch, plugin_dir: Path, docs: Path
) -> None:
    plugin = _import_plugin(monkeypatch, plugin_dir)
    assert "by-line" in registry.names("chunker") and "ini" in registry.names("parser")
    chunker = sectionrag.chunker("by-line")
    embedder = get_embedder("plug-hash")
    assert type(chunker).__module__ == "sr_plugin_demo" and embedder.name == "plug-hash"

    pipe = Pipeline(chunker=chunker, embedder=embedder, store=InMemoryStore())
    report = pipe.ingest([docs])  # the directory walk finds .ini files: the parser registered them
    assert sorted(Path(s).name for s in report.added) == ["notes.md", "settings.ini"]
    assert plugin.CALLS == ["parse"]  # the AutoParser chose the plug-in for the .ini file only

    hits = pipe.search("engine lancedb", k=1, mode="text")
    assert hits[0].text == "engine = lancedb" and hits[0].section_path == ("database",)
    assert hits[0].source.endswith("settings.ini")
    vector_hits = pipe.search("port = 8080", k=3)
    assert "port = 8080" in [h.text for h in vector_hits]


def test_a_plugin_parser_is_used_by_name_and_by_extension(
    monkeypatch: pytest.MonkeyPatch, plugin_dir: Path, docs: Path
) -> None:
    _import_plugin(monkeypatch, plugin_dir)
    by_ext = sectionrag.parse(docs / "settings.ini")
    assert [s.title for s in by_ext.sections] == ["server", "database"]
    plain = docs / "settings.txt"
    plain.write_text(INI, encoding="utf-8")
    assert sectionrag.parse(plain).metadata.get("format") != "ini"  # .txt stays with the text parser
    pipe = Pipeline(parser=get_parser("ini"), embedder=get_embedder("plug-hash"), store=InMemoryStore())
    assert pipe.parser.parse(plain).metadata["format"] == "ini"


def test_cli_uses_plugins_named_in_the_environment(
    monkeypatch: pytest.MonkeyPatch, plugin_dir: Path, docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(plugin_dir))
    monkeypatch.setenv("SECTIONRAG_PLUGINS", "sr_plugin_demo")

    assert main(["parse", str(docs / "settings.ini"), "--json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert [s["title"] for s in parsed["sections"]] == ["server", "database"]

    assert main(["chunk", str(docs / "settings.ini"), "--strategy", "by-line", "--json"]) == 0
    chunked = json.loads(capsys.readouterr().out)
    assert [c["text"] for c in chunked["chunks"]][:2] == ["[server]", "host = example.org"]

    plain = docs / "plain.txt"
    plain.write_text(INI, encoding="utf-8")
    assert main(["parse", str(plain), "--parser", "ini", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["sections"]) == 2


def _cli(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "sectionrag", *args, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_index_and_search_from_the_command_line_with_a_plugin(
    tmp_path: Path, plugin_dir: Path, docs: Path
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(plugin_dir), str(SRC), os.environ.get("PYTHONPATH", "")]),
        "SECTIONRAG_PLUGINS": "sr_plugin_demo",
    }
    db = str(tmp_path / "db")
    indexed = _cli(["index", str(docs), "--db", db, "--embedder", "plug-hash", "--strategy", "by-line"], env)
    assert indexed["added"] == 2 and indexed["failed"] == []
    # search builds the embedder again from the name the collection recorded: "plug-hash"
    found = _cli(["search", "engine lancedb", "--db", db, "--mode", "hybrid", "-k", "1"], env)
    assert found["results"][0]["text"] == "engine = lancedb"


def test_plugins_declared_as_entry_points_are_loaded(
    monkeypatch: pytest.MonkeyPatch, plugin_dir: Path
) -> None:
    (plugin_dir / "sr_plugin_entry.py").write_text(
        "import sectionrag\n\n\ndef setup() -> None:\n"
        "    sectionrag.register('chunker', 'by-line-ep', 'sr_plugin_demo:LineChunker')\n",
        encoding="utf-8",
    )
    dist = plugin_dir / "sr_plugin_entry-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: sr-plugin-entry\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(
        "[sectionrag.plugins]\nlines = sr_plugin_entry:setup\ndemo = sr_plugin_demo\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(plugin_dir))
    registry._LOADED_PLUGINS.clear()  # a fresh process: entry points not read yet
    chunker = sectionrag.chunker("by-line-ep")  # not registered yet: the miss loads the plug-ins
    assert type(chunker).__name__ == "LineChunker"
    assert "plug-hash" in registry.names("embedder")  # the module entry point registered on import


def test_a_broken_plugin_is_reported_by_name(monkeypatch: pytest.MonkeyPatch, plugin_dir: Path) -> None:
    (plugin_dir / "sr_plugin_broken.py").write_text(
        "raise RuntimeError('no licence key')\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(plugin_dir))
    monkeypatch.setenv("SECTIONRAG_PLUGINS", "sr_plugin_broken")
    with pytest.raises(ConfigError, match=r"sr_plugin_broken.*no licence key"):
        sectionrag.chunker("no-such-strategy")
    monkeypatch.setenv("SECTIONRAG_PLUGINS", "sr_plugin_missing")
    with pytest.raises(ConfigError, match="sr_plugin_missing"):
        registry.names("chunker")
    sys.modules.pop("sr_plugin_broken", None)


def test_auto_parser_options_reach_only_the_parsers_that_take_them(
    monkeypatch: pytest.MonkeyPatch, plugin_dir: Path, docs: Path
) -> None:
    _import_plugin(monkeypatch, plugin_dir)
    auto = AutoParser(use_outline=False)
    assert auto.parse(docs / "settings.ini").metadata["format"] == "ini"  # IniParser() takes no options
    assert auto.parse(docs / "notes.md").sections[0].title == "Notes"
    with pytest.raises(ConfigError, match="unknown parse option"):
        AutoParser(colour="blue")
