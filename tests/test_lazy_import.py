"""Importing lancedb lighter: REST client and namespace models deferred, ``overrides`` as markers.

lancedb is imported in a fresh interpreter (this one has it already), and
what was left out is then used, to show that it still works.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from sectionrag.stores._lazy_import import (
    defer_package_body,
    namespace_models_deferred,
    overrides_as_markers,
)

ROOT = Path(__file__).resolve().parent.parent

_FRESH = r"""
import sys
from sectionrag.stores._lance_schema import import_lancedb

lancedb = import_lancedb()
import lancedb.db

client = sys.modules["lance_namespace_urllib3_client"]
print("rest body deferred", "ApiClient" not in client.__dict__)
print("overrides left out", "overrides" not in sys.modules)
print("lancedb override is a marker", getattr(lancedb.db.override, "__module__", "") != "overrides")

# a local database works with what lancedb was given
import tempfile, pyarrow as pa
db = lancedb.connect(tempfile.mkdtemp())
table = db.create_table("t", pa.table({"a": [1, 2, 3]}))
print("lancedb works", table.count_rows() == 3)

models = [m for m in sys.modules if m.startswith("lance_namespace_urllib3_client.models.")]
print("few namespace models", 0 < len(models) < 60)
print("namespace body deferred", "LanceNamespace" not in sys.modules["lance_namespace"].__dict__)

# what was left out works when used
import lance_namespace
from lance_namespace import LanceNamespace
ran = LanceNamespace.__module__ == "lance_namespace" and len(lance_namespace.__all__) > 100
print("namespace body ran", ran)
# the response models lancedb.db took from lance_namespace (which ones differs between releases)
shared = [n for n in lance_namespace.__all__ if n.endswith("Response") and n in vars(lancedb.db)]
same = all(getattr(lancedb.db, n) is getattr(lance_namespace, n) for n in shared)
print("same models", bool(shared) and same)
class Impl(LanceNamespace):
    def namespace_id(self):
        return "impl"
print("stand-in checks the real class", isinstance(Impl(), lancedb.db.LanceNamespace))
print("not anything", not isinstance(object(), lancedb.db.LanceNamespace))
lance_namespace.register_namespace_impl("sectionrag-test", "__main__.Impl")
impl = lancedb.db.namespace_connect("sectionrag-test", {})
print("connect as lancedb calls it", impl.namespace_id() == "impl")
from lance_namespace_urllib3_client import ApiClient
print("rest client loads", callable(ApiClient))
import overrides
print("real overrides", overrides.override.__module__.startswith("overrides"))
class Base(overrides.EnforceOverrides):
    def f(self): ...
try:
    class Child(Base):
        @overrides.override
        def g(self): ...
    print("overrides checks", False)
except TypeError:
    print("overrides checks", True)
"""


def test_lancedb_imports_without_what_a_local_database_does_not_use() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True, env=env, check=True)
    lines = dict(line.rsplit(" ", 1) for line in out.stdout.strip().splitlines())
    expected_markers = "True" if sys.version_info < (3, 12) else lines["lancedb override is a marker"]
    assert lines == {
        "rest body deferred": "True",
        "few namespace models": "True",
        "namespace body deferred": "True",
        "namespace body ran": "True",
        "same models": "True",
        "stand-in checks the real class": "True",
        "not anything": "True",
        "connect as lancedb calls it": "True",
        "overrides left out": "True",
        "lancedb override is a marker": expected_markers,
        "lancedb works": "True",
        "rest client loads": "True",
        "real overrides": "True",
        "overrides checks": "True",
    }


def test_overrides_stand_in_marks_and_hands_other_names_to_the_real_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("overrides")
    monkeypatch.delitem(sys.modules, "overrides", raising=False)
    with overrides_as_markers(version=(3, 11)):
        stand_in = sys.modules["overrides"]
        from overrides import EnforceOverrides, override

        @override
        def f() -> None: ...

        assert f.__override__ is True  # type: ignore[attr-defined]
        assert override(check_signature=False)(f) is f
        assert type(EnforceOverrides) is type  # no checking metaclass, as on Python 3.12+
        final = stand_in.final  # another name: the real package
        assert callable(final)
        assert sys.modules["overrides"] is not stand_in
    assert isinstance(sys.modules["overrides"], types.ModuleType)
    assert sys.modules["overrides"] is not stand_in  # the real one stays


def test_overrides_stand_in_only_where_it_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("overrides")
    monkeypatch.delitem(sys.modules, "overrides", raising=False)
    with overrides_as_markers(version=(3, 12)):  # lancedb takes typing.override itself
        assert "overrides" not in sys.modules
    with overrides_as_markers(version=(3, 11)):
        assert "overrides" in sys.modules
    assert "overrides" not in sys.modules  # removed afterwards
    import overrides  # the real package

    with overrides_as_markers(version=(3, 11)):  # imported already: left alone
        assert sys.modules["overrides"] is overrides


def test_defer_package_body_leaves_what_it_cannot_defer_alone() -> None:
    assert defer_package_body("sys") is False  # imported already
    assert defer_package_body("no_such_package_for_sectionrag") is False
    assert defer_package_body("json.decoder") is False  # imported (and not a package)


def _package(root: Path, name: str, init: str, modules: dict[str, str]) -> None:
    pkg = root / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(init, encoding="utf-8")
    for sub, text in modules.items():
        (pkg / f"{sub}.py").write_text(text, encoding="utf-8")


_MODELS = "from fakemodels.a import A\nfrom fakemodels.b import B\nfrom fakemodels.c import C as Cee\n"
_NS = """
import sys
from fakemodels import A, B
RAN = True
class Base:
    pass
def connect(x):
    return ("real", x)
"""


@pytest.fixture
def fake_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``fakens`` re-exports models of ``fakemodels`` (one class per submodule) and defines two names."""
    models = {k: f"class {k.upper()}:\n    pass\n" for k in "abc"}
    _package(tmp_path, "fakemodels", _MODELS, models)
    _package(tmp_path, "fakens", _NS, {})
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith(("fakens", "fakemodels"))]:
        monkeypatch.delitem(sys.modules, name)
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith(("fakens", "fakemodels"))]:
        del sys.modules[name]


def test_namespace_names_are_answered_without_the_body_during_the_block(fake_packages: Path) -> None:
    with namespace_models_deferred("fakens", "fakemodels", ("Base", "connect")) as deferred:
        assert deferred
        from fakens import A, Base, connect

        assert A.__module__ == "fakemodels.a"
        assert "fakemodels.b" not in sys.modules  # the models nobody asked for stay out
        assert "RAN" not in sys.modules["fakens"].__dict__
        assert connect(1) == ("real", 1)  # the stand-in runs the body and calls the real one
        assert "RAN" in sys.modules["fakens"].__dict__
    import fakens

    assert fakens.A is A and fakens.Base is not Base
    assert issubclass(type("Sub", (fakens.Base,), {}), Base) and not isinstance(1, Base)


def test_after_the_block_the_first_name_runs_the_body(fake_packages: Path) -> None:
    with namespace_models_deferred("fakens", "fakemodels", ("Base", "connect")):
        pass
    import fakens

    assert "RAN" not in fakens.__dict__
    assert fakens.RAN is True and fakens.B.__module__ == "fakemodels.b"
    assert fakens.connect(2) == ("real", 2)


def test_another_name_in_the_block_runs_the_body(fake_packages: Path) -> None:
    with namespace_models_deferred("fakens", "fakemodels", ("Base", "connect")):
        import fakens

        assert fakens.RAN is True
        assert fakens.Base.__module__ == "fakens"  # the real one from then on


@pytest.mark.parametrize(
    "change",
    [
        "models do more than re-export",
        "a stand-in is not defined",
        "a stand-in is a model",
        "imported already",
    ],
)
def test_nothing_is_deferred_when_a_package_is_unexpected(fake_packages: Path, change: str) -> None:
    names: tuple[str, ...] = ("Base", "connect")
    if change == "models do more than re-export":
        (fake_packages / "fakemodels" / "__init__.py").write_text(_MODELS + "X = 1\n", encoding="utf-8")
    elif change == "a stand-in is not defined":
        names = ("Base", "connect", "Missing")
    elif change == "a stand-in is a model":
        names = ("Base", "A")
    else:
        import fakemodels  # noqa: F401
    with namespace_models_deferred("fakens", "fakemodels", names) as deferred:
        assert not deferred
        assert "fakens" not in sys.modules
    with namespace_models_deferred("no_such_package_for_sectionrag", "fakemodels") as deferred:
        assert not deferred
