"""Where a LanceDB store's database lives and how its tables are opened: URIs, connection, safe messages."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag.errors import CollectionNotFoundError, ConfigError, StoreError
from sectionrag.stores._lance_schema import META_DIMENSION, META_EMBEDDER, import_lancedb
from sectionrag.stores._lance_write import lock_file_name

if TYPE_CHECKING:
    import pyarrow as pa

#: URI schemes of the object stores a database can live on
REMOTE_SCHEMES = ("s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "azure")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def is_remote(path: str | Path) -> bool:
    """Tell whether ``path`` is a URI on object storage (``s3://``, ``gs://``, ``az://``), not a directory.

    Raises:
        ConfigError: a URI with a scheme no object store answers to (``http://``, ``ftp://``).
    """
    if not isinstance(path, str):
        return False
    m = _SCHEME.match(path)
    if m is None:
        return False
    scheme = m.group(1).lower()
    if scheme == "file":
        return False
    if scheme not in REMOTE_SCHEMES:
        raise ConfigError(
            f"unsupported database URI scheme {scheme!r} in {shown_uri(path)}; give a directory or "
            f"one of: {', '.join(s + '://' for s in REMOTE_SCHEMES)}"
        )
    return True


def shown_uri(uri: str) -> str:
    """``uri`` without any credentials written into it (``s3://key:secret@bucket``)."""
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@", r"\1", uri)


def check_storage_options(options: Mapping[str, Any] | None) -> dict[str, str]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"storage_options must be a mapping of str to str, not {type(options).__name__}")
    out: dict[str, str] = {}
    for key, value in options.items():
        if not isinstance(key, str) or not key:
            raise TypeError("storage_options keys must be non-empty str")
        if isinstance(value, bool):
            value = "true" if value else "false"
        if not isinstance(value, (str, int, float)):
            raise TypeError(f"storage option {key!r} must be a str, not {type(value).__name__}")
        out[key] = str(value)
    return out


class LanceTables:
    """The connection and table plumbing of :class:`~sectionrag.stores.lancedb.LanceDBStore` (its base)."""

    remote: bool
    path: Path | None
    uri: str
    collection: str
    lock_ttl: float
    _storage_options: dict[str, str]
    _db: Any
    _lease: Any

    if TYPE_CHECKING:

        @property
        def where(self) -> str: ...

        def collections(self) -> list[str]: ...

    # -- connection -------------------------------------------------------
    def _check_directory(self) -> None:
        """Raise StoreError if the database path exists but is not a directory."""
        if self.path is not None and self.path.exists() and not self.path.is_dir():
            raise StoreError(
                f"{self.where} is a file, not a database: a LanceDB database is a directory "
                "(give a new or existing directory)"
            )

    def _connect(self, *, create: bool) -> Any:
        if self._db is None:
            self._check_directory()
            if not create and self.path is not None and not self.path.is_dir():
                return None
            lancedb = import_lancedb()
            try:
                # read_consistency_interval=0: always see other writers' latest version
                self._db = lancedb.connect(
                    self.uri,
                    read_consistency_interval=timedelta(0),
                    storage_options=self._storage_options or None,
                )
            except Exception as e:
                raise StoreError(f"cannot open LanceDB database at {self.where}: {redact(e, self)}") from e
        return self._db

    def _check_lease(self) -> None:
        """Refuse to write once the lease on a remote collection was lost."""
        if self._lease is not None:
            self._lease.check()

    def _open(self) -> Any:
        db = self._connect(create=False)
        if db is None or self.collection not in self.collections():
            return None
        try:
            return db.open_table(self.collection)
        except ValueError:  # a table whose creation was interrupted (no version yet)
            return None

    def _require(self) -> tuple[Any, tuple[str, int]]:
        table = self._open()
        if table is None:
            existing = ", ".join(self.collections()) or "none"
            raise CollectionNotFoundError(
                f"collection {self.collection!r} does not exist in {self.where} "
                f"(existing collections: {existing}); index documents into it first "
                "or pick an existing one with --collection"
            )
        return table, self._read_record(table)

    def _read_record(self, table: Any) -> tuple[str, int]:
        meta = table.schema.metadata or {}
        try:
            return meta[META_EMBEDDER].decode("utf-8"), int(meta[META_DIMENSION])
        except (KeyError, ValueError) as e:
            raise StoreError(
                f"table {self.collection!r} in {self.where} was not created by sectionrag "
                "(no embedder recorded in its schema); use another collection name"
            ) from e

    # -- internal tables and the remote lease -----------------------------
    def _open_internal(self, name: str) -> Any:
        db = self._connect(create=False)
        if db is None:
            return None
        try:
            return db.open_table(name)
        except ValueError:  # "Table ... was not found"
            return None

    def _internal_table(self, name: str, schema: pa.Schema) -> Any:
        table = self._open_internal(name)
        if table is None:
            db = self._connect(create=True)
            try:
                table = db.create_table(name, schema=schema, exist_ok=True)
            except Exception as e:
                raise StoreError(f"cannot create table {name!r} in {self.where}: {redact(e, self)}") from e
        return table

    @contextmanager
    def _remote_lock(self, what: str, timeout: float) -> Iterator[None]:
        from sectionrag.stores._lease import lease_lock, object_store

        bucket = object_store(self.uri, self._storage_options)
        with lease_lock(
            bucket, lock_file_name(self.collection), what=what, timeout=timeout, ttl=self.lock_ttl
        ) as lease:
            self._lease = lease
            try:
                yield
            finally:
                self._lease = None


def redact(error: BaseException, store: LanceTables) -> str:
    """Return an error's message with the store's secret storage options blanked out, if echoed."""
    text = " ".join(str(error).split())
    for key, value in store._storage_options.items():
        if len(value) >= 4 and _secret_key(key):
            text = text.replace(value, "***")
    return text


def _secret_key(key: str) -> bool:
    k = key.lower()
    return any(w in k for w in ("secret", "key", "token", "password", "sas", "credential", "service_account"))
