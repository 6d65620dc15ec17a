"""Caches of LLM enrichment, so re-indexing unchanged text calls no LLM.

A cache maps a key from :func:`cache_key` (chunk text hash, field, prompt
version, model) to a JSON value (the validated field). Two implementations:
:class:`MemoryCache` (a dict, for one process) and :class:`SQLiteCache`
(a file, shared between runs; ``sectionrag index`` keeps one in the database
directory). Both are safe to use from several threads.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from sectionrag.errors import EnrichmentError

__all__ = ["EnrichmentCache", "MemoryCache", "SQLiteCache", "cache_key", "text_hash"]


def text_hash(text: str) -> str:
    """Return the sha256 hex digest of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def cache_key(text: str, field: str, prompt_version: str, model: str) -> str:
    """Return the cache key of one enrichment ``field`` of ``text`` by ``model`` with a prompt version.

    ``text`` is what the prompt shows of the chunk (its text and context header);
    changing any part gives another key.
    """
    return text_hash("\x00".join([text_hash(text), field, prompt_version, model]))


@runtime_checkable
class EnrichmentCache(Protocol):
    """Where enrichment results are kept between calls (values are JSON-serialisable)."""

    def get(self, key: str) -> Any | None:
        """Return the value stored under ``key``, or ``None``."""
        ...

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key`` (replacing any older value)."""
        ...


class MemoryCache:
    """An in-process cache (a dict guarded by a lock).

    Attributes:
        hits: Lookups that found a value.
        misses: Lookups that found nothing.
    """

    def __init__(self) -> None:
        self._data: dict[str, str] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"MemoryCache({len(self._data)} entries)"

    def get(self, key: str) -> Any | None:
        """Return the value stored under ``key``, or ``None``."""
        with self._lock:
            raw = self._data.get(key)
            if raw is None:
                self.misses += 1
                return None
            self.hits += 1
        return json.loads(raw)

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` (a JSON round trip, so callers never share mutable state)."""
        raw = json.dumps(value, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._data[key] = raw


class SQLiteCache:
    """A cache in a SQLite file: survives between runs, shareable by processes (WAL mode).

    Args:
        path: The database file (created with its parent directory if missing).

    Raises:
        EnrichmentError: the file cannot be opened as a cache.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False
            )
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS enrichment (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                "created REAL NOT NULL)"
            )
        except (sqlite3.Error, OSError) as e:
            raise EnrichmentError(f"cannot open the enrichment cache {self.path}: {e}") from e

    def __repr__(self) -> str:
        return f"SQLiteCache({str(self.path)!r})"

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*) FROM enrichment").fetchone()
        return int(row[0])

    def __enter__(self) -> SQLiteCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, key: str) -> Any | None:
        """Return the value stored under ``key``, or ``None``."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM enrichment WHERE key = ?", (key,)).fetchone()
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
        return json.loads(row[0])

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``."""
        raw = json.dumps(value, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO enrichment (key, value, created) VALUES (?, ?, ?)",
                (key, raw, time.time()),
            )

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()
