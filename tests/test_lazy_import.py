"""Importing lancedb lighter: its REST client's package body deferred, ``overrides`` as markers.

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

from sectionrag.stores._lazy_import import defer_package_body, overrides_as_markers

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

# what was left out works when used
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
