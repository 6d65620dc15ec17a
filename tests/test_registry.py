from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import sectionrag
from sectionrag import registry
from sectionrag.errors import ConfigError, UnsupportedFileTypeError
from sectionrag.parsers import detect_kind, get_parser
from sectionrag.testing import HashEmbedder

SRC = Path(__file__).resolve().parent.parent / "src"


class Upper:
    def __init__(self, *, size: int = 3) -> None:
        self.size = size


def test_every_kind_has_its_built_in_names() -> None:
    assert registry.names("chunker") == [
        "fixed",
        "overlap",
        "paragraph",
        "recursive",
        "section",
        "semantic",
        "sentence",
    ]
    assert registry.names("parser") == ["html", "markdown", "pdf", "rst", "text"]
    assert {"bge-m3", "minilm", "static"} <= set(registry.names("embedder"))
    assert registry.names("store") == ["lancedb"]
    assert registry.names("enricher") == ["extractive", "llm"]
    assert registry.parser_extensions()[".md"] == "markdown"
    assert registry.parser_extensions()[".rst"] == "rst"


def test_register_create_replace_and_unregister(clean_registry: None) -> None:
    sectionrag.register("chunker", "upper", Upper)
    built = registry.create("chunker", "upper", size=7)
    assert isinstance(built, Upper) and built.size == 7
    sectionrag.register("chunker", "upper", Upper)  # the same again: nothing to refuse
    with pytest.raises(ConfigError, match="already registered"):
        sectionrag.register("chunker", "upper", HashEmbedder)
    sectionrag.register("chunker", "upper", HashEmbedder, replace=True)
    assert registry.lookup("chunker", "upper") is HashEmbedder
    registry.unregister("chunker", "upper")
    with pytest.raises(ConfigError, match="unknown chunking strategy 'upper'; choose one of: fixed"):
        sectionrag.chunker("upper")


def test_bound_params_are_a_preset_the_caller_can_override(clean_registry: None) -> None:
    sectionrag.register("embedder", "tiny-hash", HashEmbedder, params={"dimension": 8, "name": "tiny-hash"})
    assert registry.create("embedder", "tiny-hash").dimension == 8
    assert registry.create("embedder", "tiny-hash", dimension=16).dimension == 16
    with pytest.raises(
        ConfigError, match=r"invalid parameters for embedder 'tiny-hash' \(options given: colour\)"
    ):
        registry.create("embedder", "tiny-hash", colour="blue")


def test_a_target_given_as_a_path_is_imported_only_when_used(clean_registry: None, tmp_path: Path) -> None:
    (tmp_path / "sr_lazy_mod.py").write_text("class Thing:\n    pass\n", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        sectionrag.register("enricher", "lazy", "sr_lazy_mod:Thing")
        assert "sr_lazy_mod" not in sys.modules
        assert registry.lookup("enricher", "lazy").__name__ == "Thing"
        assert "sr_lazy_mod" in sys.modules
        sectionrag.register("enricher", "gone", "sr_lazy_mod:Nothing")
        with pytest.raises(ConfigError, match="'gone' is registered as 'sr_lazy_mod:Nothing', which cannot"):
            registry.lookup("enricher", "gone")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("sr_lazy_mod", None)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (("stage", "x", Upper), {}, ConfigError, "unknown kind of stage 'stage'"),
        (("chunker", " x", Upper), {}, ConfigError, "non-empty string"),
        (("chunker", "x", "no_colon"), {}, ConfigError, "package.module:attr"),
        (("chunker", "x", 42), {}, TypeError, "a class, a factory"),
        (("chunker", "x", Upper), {"extensions": [".x"]}, ConfigError, "only a parser takes extensions"),
        (("parser", "x", Upper), {"extensions": [""]}, ConfigError, "file extension"),
    ],
)
def test_bad_registrations_are_refused(
    clean_registry: None, args: tuple[object, ...], kwargs: dict[str, object], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        registry.register(*args, **kwargs)  # type: ignore[arg-type]


def test_a_registered_parser_takes_its_extensions_from_the_built_in_one(
    clean_registry: None, tmp_path: Path
) -> None:
    class Shouting:
        def parse(self, source: object, *, name: str | None = None) -> sectionrag.Document:
            text = Path(str(source)).read_text(encoding="utf-8").upper()
            return sectionrag.Document.create(text, source=name or str(source))

    path = tmp_path / "note.md"
    path.write_text("# hello\n\nworld\n", encoding="utf-8")
    assert detect_kind(path) == "markdown"
    sectionrag.register("parser", "shouting", Shouting, extensions=["MD"])  # normalised to ".md"
    assert detect_kind(path) == "shouting"
    assert sectionrag.parse(path).text == "# HELLO\n\nWORLD\n"
    assert isinstance(get_parser(".md"), Shouting)
    with pytest.raises(UnsupportedFileTypeError, match="no parser named 'nope'; choose one of: html"):
        get_parser("nope")
    with pytest.raises(ConfigError, match="accepted: drop_page_chrome"):
        get_parser("html", use_outline=False)


def test_built_in_names_read_no_plugin_and_import_nothing_heavy(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text("# Note\n\ntext\n", encoding="utf-8")
    code = (
        "import sys, sectionrag\n"
        "from sectionrag.embedders import get_embedder\n"
        "sectionrag.chunker('paragraph')\n"
        f"sectionrag.parse({str(note)!r})\n"
        "get_embedder('sentence-transformers/all-MiniLM-L6-v2')\n"  # a model id: no plug-in lookup
        "from sectionrag import registry\n"
        "print(registry._LOADED_PLUGINS == set(), 'torch' in sys.modules, 'lancedb' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        check=True,
    ).stdout
    assert out.split() == ["True", "False", "False"]
