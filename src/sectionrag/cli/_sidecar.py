"""Small files the command line keeps next to a local collection to skip work it need not do (private).

Two JSON files in the database directory, each written atomically (a
temporary file renamed over it) and each only ever a hint: a missing,
unreadable or stale one costs time, never a wrong answer.

- ``_sectionrag_embedder.<collection>.json`` names the embedder the
  collection records (name, dimension, description). ``sectionrag search``
  in vector or hybrid mode reads it before anything imports lancedb and has
  that model embed the query in a helper process where it can fork (see
  :mod:`sectionrag.cli._query_helper`), else loads it in a thread
  (:class:`ModelPreload`), while lancedb is imported and the collection
  opened. The collection is then opened as always, from its own record: the
  helper's vector is used only when the recorded embedder describes itself
  as the helper's did, and models are cached per process by their settings,
  so the recorded embedder finds the preloaded model only when it is the same
  one, and otherwise loads its own.
- ``_sectionrag_unchanged.<collection>.json`` (see :mod:`sectionrag.cli._unchanged`)
  lets ``sectionrag index`` tell that nothing changed without lancedb or a model.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from sectionrag.defaults import DEFAULT_STORE

__all__ = [
    "ModelPreload",
    "database_dir",
    "embedder_hint",
    "hinted_embedder",
    "read_embedder_hint",
    "read_sidecar",
    "remove_sidecar",
    "sidecar_path",
    "write_embedder_hint",
    "write_sidecar",
]

logger = logging.getLogger(__name__)

#: version of the sidecar files' layout (another one is ignored)
FORMAT = 1


def database_dir(args: Any) -> Path | None:
    """Return the local directory of ``--db`` for the default store, ``None`` otherwise.

    A database on object storage, another store, or storage options: no sidecar.
    """
    from sectionrag.stores._lance_tables import is_remote

    db = getattr(args, "db", None)
    if not isinstance(db, str) or getattr(args, "store", DEFAULT_STORE) != DEFAULT_STORE:
        return None
    if getattr(args, "storage_option", None) or getattr(args, "storage_option_env", None):
        return None
    try:
        if is_remote(db):
            return None
    except Exception:  # an unsupported URI: the command says so itself
        return None
    return Path(db).expanduser()


def sidecar_path(directory: Path, kind: str, collection: str) -> Path:
    """Return where sidecar ``kind`` (``embedder``, ``unchanged``) of ``collection`` lives."""
    return directory / f"_sectionrag_{kind}.{collection}.json"


def read_sidecar(path: Path) -> dict[str, Any] | None:
    """Return the sidecar's content, or ``None`` if it is missing, unreadable or of another format."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    return data


def write_sidecar(path: Path, data: dict[str, Any]) -> bool:
    """Write ``data`` (plus the format) to ``path`` atomically; return whether it was written.

    Never raises for a file system that refuses (a read-only database): the sidecar is a hint.
    """
    if not path.parent.is_dir():
        return False
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"format": FORMAT, **data}, f, ensure_ascii=False, sort_keys=True)
        os.replace(tmp, path)
        return True
    except (OSError, TypeError, ValueError) as e:
        logger.debug("cannot write %s: %s", path, e)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def remove_sidecar(path: Path) -> None:
    """Delete a sidecar if it exists (errors ignored)."""
    with contextlib.suppress(OSError):
        path.unlink()


# -- the embedder hint ----------------------------------------------------------------------------


def embedder_hint(embedder: Any, dimension: int | None = None) -> dict[str, Any]:
    """Describe ``embedder`` as the collection records it (name, dimension, description).

    ``dimension``: the recorded one, when known (else the embedder's, which may read its configuration).
    """
    from sectionrag._describe import describe

    description = describe(embedder)
    if not isinstance(description, dict):
        raise TypeError("the embedder does not describe itself as a mapping")
    dim = int(embedder.dimension if dimension is None else dimension)
    description.update(name=str(embedder.name), dimension=dim)  # as ingestion records it
    return {"embedder": str(embedder.name), "dimension": dim, "description": description}


def write_embedder_hint(args: Any, embedder: Any, dimension: int | None = None) -> None:
    """Write (or refresh) the embedder hint of ``--db``/``--collection`` when it differs."""
    directory = database_dir(args)
    if directory is None:
        return
    path = sidecar_path(directory, "embedder", args.collection)
    try:
        hint = embedder_hint(embedder, dimension)
    except Exception as e:  # a hint is never worth a failed command
        logger.debug("no embedder hint: %s", e)
        return
    old = read_sidecar(path)
    if old is None or {k: old.get(k) for k in hint} != hint:
        write_sidecar(path, hint)


def read_embedder_hint(args: Any) -> dict[str, Any] | None:
    """Return the embedder hint of ``--db``/``--collection``, or ``None`` when there is no usable one."""
    directory = database_dir(args)
    if directory is None:
        return None
    hint = read_sidecar(sidecar_path(directory, "embedder", args.collection))
    if (
        hint is None
        or not isinstance(hint.get("embedder"), str)
        or not isinstance(hint.get("description"), dict)
        or not isinstance(hint.get("dimension"), int)
    ):
        return None
    return hint


def hinted_embedder(hint: dict[str, Any], collection: str, backend: str | None) -> Any:
    """Build (not load) the embedder ``hint`` describes, as the collection's record would, on ``backend``."""
    from sectionrag.ingest.reopen import RecordedSettings, restore_embedder

    settings = RecordedSettings(
        collection, hint["embedder"], hint["dimension"], {"embedder": hint["description"]}, 0
    )
    return restore_embedder(settings, backend=backend, check=False)


class ModelPreload:
    """Loads the model an embedder hint names in a background thread (see the module docstring).

    Args:
        hint: The hint's content.
        collection: The collection's name (for messages).
        backend: ``--backend``, when given.
        query: A query to embed once loaded (the first embedding loads the weights).
    """

    def __init__(self, hint: dict[str, Any], collection: str, backend: str | None, query: str) -> None:
        self.hint = hint
        self.collection = collection
        self.backend = backend
        self.query = query
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="sectionrag-model-preload", daemon=True)

    @classmethod
    def start(cls, args: Any) -> ModelPreload | None:
        """Start preloading the model hinted for ``--db``/``--collection``; ``None`` without a usable hint."""
        hint = read_embedder_hint(args)
        if hint is None:
            return None
        # what the thread imports of sectionrag (and numpy, which lancedb imports too) is imported
        # here first, so the two threads never wait on each other's half-imported modules
        import numpy  # noqa: F401

        import sectionrag.embedders
        import sectionrag.ingest.reopen  # noqa: F401

        preload = cls(hint, args.collection, getattr(args, "backend", None), args.query)
        preload._thread.start()
        logger.debug("preloading the hinted model in a thread")
        return preload

    def _run(self) -> None:
        try:
            embedder = hinted_embedder(self.hint, self.collection, self.backend)
            embedder.embed_query(self.query)
        except Exception as e:  # only a hint: the search path reports real problems itself
            self.error = e
            logger.debug("preloading the hinted model failed: %s", e)

    def join(self) -> None:
        """Wait for the thread to finish."""
        self._thread.join()
