"""A single-writer lock on object storage (S3, GCS, Azure): a lease object written conditionally (private).

A file lock cannot protect a collection in a bucket, so an ingest into one
holds a *lease*: a small JSON object next to the data
(``_sectionrag_ingest.<collection>.lock``) naming its holder. Every write is
conditional, so two writers can never both believe they hold it:

- **taking** it creates the object only if it does not exist
  (``If-None-Match: *`` on S3, a generation precondition on GCS, an ETag
  condition on Azure); a writer that finds it taken waits or fails, naming
  the holder;
- the holder **renews** it every third of its time to live, replacing the
  object only if it is still the version it wrote (``If-Match: <etag>``);
- a lease that is not renewed is **stale**: its holder was killed (or cut off).
  It is stale when its last renewal, by the holder's clock, is older than two
  times to live (one of margin for clocks that disagree), or when a waiter has
  seen the same version for longer than a time to live by its own clock. A
  stale lease is taken over by a conditional replace, so of two waiters only
  one gets it;
- **releasing** marks the object released (conditionally), never deletes it,
  so a release can never remove a lease someone else took over.

A holder that cannot renew in time (it lost the lease to a takeover) notices
at its next renewal; :meth:`Lease.check`, which the store calls before each
write, then raises :class:`~sectionrag.errors.IngestError` instead of writing.
The object holds no secret: the holder's process id, host and times.

Talks to the bucket through ``obstore`` (extra ``sectionrag[cloud]``), which
takes the same storage options as LanceDB.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from sectionrag._checks import check_number
from sectionrag.errors import IngestError, MissingDependencyError, StoreError

__all__ = ["DEFAULT_LEASE_SECONDS", "Lease", "lease_lock", "object_store"]

#: how long a lease lives without renewal (seconds)
DEFAULT_LEASE_SECONDS = 30.0
_POLL_SECONDS = 0.2
#: storage options that configure the HTTP client rather than the store
_CLIENT_KEYS = frozenset(
    {
        "allow_http",
        "allow_invalid_certificates",
        "connect_timeout",
        "default_content_type",
        "http1_only",
        "http2_only",
        "pool_idle_timeout",
        "pool_max_idle_per_host",
        "proxy_url",
        "proxy_ca_certificate",
        "proxy_excludes",
        "randomize_addresses",
        "read_timeout",
        "timeout",
        "user_agent",
    }
)
#: storage options LanceDB reads itself and the object store does not know
_LANCE_ONLY = frozenset(
    {
        "download_retry_count",
        "client_max_retries",
        "client_retry_timeout",
        "use_opendal",
        "use_constant_size_upload_parts",
    }
)
_TRUE = frozenset({"1", "true", "yes", "on"})


def object_store(uri: str, storage_options: Mapping[str, str]) -> Any:
    """Open the object store (bucket and prefix) of ``uri`` with LanceDB-style storage options.

    Raises:
        MissingDependencyError: ``obstore`` is not installed.
        StoreError: the options or the URI are refused.
    """
    try:
        from_url: Any = importlib.import_module("obstore.store").from_url
    except ImportError as e:
        raise MissingDependencyError(
            "writing to a collection on object storage needs obstore for its lock: "
            'pip install "sectionrag[cloud]"'
        ) from e
    config: dict[str, str] = {}
    client: dict[str, Any] = {}
    for key, value in storage_options.items():
        k = key.lower()
        if k in _LANCE_ONLY:
            continue
        if k in _CLIENT_KEYS:
            text = str(value)
            client[k] = text.lower() in _TRUE if k.startswith(("allow_", "http", "randomize")) else text
        else:
            config[k] = str(value)
    try:
        return from_url(uri, config=config or None, client_options=client or None)
    except Exception as e:  # never echo the options: they may hold secrets
        raise StoreError(f"cannot open the object store at {uri} for its lock: {type(e).__name__}") from None


def _obstore() -> tuple[Any, Any, Any]:
    """Return the ``obstore`` module and its AlreadyExists and Precondition errors (untyped)."""
    module: Any = importlib.import_module("obstore")
    errors: Any = importlib.import_module("obstore.exceptions")
    return module, errors.AlreadyExistsError, errors.PreconditionError


def _holder() -> str:
    return f"pid {os.getpid()} on {socket.gethostname()}, thread {threading.get_ident()}"


class Lease:
    """A lease held on one object; renewed in a background thread until released."""

    def __init__(self, store: Any, key: str, *, what: str, ttl: float) -> None:
        self.store = store
        self.key = key
        self.what = what
        self.ttl = ttl
        self.token = uuid.uuid4().hex
        self.since = time.strftime("%Y-%m-%d %H:%M:%S")
        self.version: dict[str, Any] = {}
        self.lost: str | None = None
        self._stop = threading.Event()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None
        self._renewed = 0.0  # when it was last written, by this process's clock

    # -- the object ------------------------------------------------------------------
    def _body(self, *, released: bool = False) -> bytes:
        return json.dumps(
            {
                "holder": _holder(),
                "since": self.since,
                "token": self.token,
                "renewed": time.time(),
                "ttl": self.ttl,
                "released": released,
            }
        ).encode()

    @staticmethod
    def _mode(meta: Mapping[str, Any]) -> dict[str, Any]:
        mode = {"e_tag": meta.get("e_tag"), "version": meta.get("version")}
        return {k: v for k, v in mode.items() if v is not None}

    def _read(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        obstore = _obstore()[0]

        try:
            got = obstore.get(self.store, self.key)
            data = bytes(got.bytes())
        except FileNotFoundError:
            return None
        try:
            info = json.loads(data)
        except ValueError:
            info = {}
        return (info if isinstance(info, dict) else {}), self._mode(got.meta)

    # -- taking, renewing, releasing ---------------------------------------------------------
    def acquire(self, timeout: float) -> None:
        """Take the lease, waiting up to ``timeout`` seconds.

        Raises:
            IngestError: another writer holds it after ``timeout`` seconds.
        """
        obstore, AlreadyExistsError, PreconditionError = _obstore()

        deadline = time.monotonic() + timeout
        seen: tuple[Any, float] | None = None  # (version seen, when first seen by this clock)
        info: dict[str, Any] = {}
        while True:
            try:
                self.version = self._mode(obstore.put(self.store, self.key, self._body(), mode="create"))
                self._renewed = time.monotonic()
                return
            except AlreadyExistsError:
                pass
            current = self._read()
            if current is not None:
                info, version = current
                ttl = float(info.get("ttl") or self.ttl)
                key = tuple(sorted(version.items()))
                if seen is None or seen[0] != key:
                    seen = (key, time.monotonic())
                stale = (
                    bool(info.get("released"))
                    or time.time() - float(info.get("renewed") or 0) > 2 * ttl
                    or time.monotonic() - seen[1] > ttl
                )
                if stale:
                    try:
                        put = obstore.put(self.store, self.key, self._body(), mode=version)
                    except PreconditionError:  # another writer took it first
                        continue
                    self.version = self._mode(put)
                    self._renewed = time.monotonic()
                    return
            if time.monotonic() >= deadline:
                holder = f" ({info.get('holder')}, since {info.get('since')})" if info.get("holder") else ""
                waited = f" after waiting {timeout:g} s" if timeout else ""
                raise IngestError(
                    f"another ingest is writing to {self.what}{holder}{waited}; wait for it to finish, "
                    "or pass a longer lock_timeout (CLI: --wait SECONDS). A lease whose holder was killed "
                    f"is taken over once it is not renewed for {self.ttl:g} s"
                )
            time.sleep(min(_POLL_SECONDS, max(0.0, deadline - time.monotonic())) or _POLL_SECONDS)

    def _renew(self) -> None:
        obstore, _, PreconditionError = _obstore()

        while not self._stop.wait(self.ttl / 3):
            with self._guard:
                try:
                    put = obstore.put(self.store, self.key, self._body(), mode=self.version)
                except PreconditionError:
                    self.lost = "another writer took the lease over (this one was not renewed in time)"
                    return
                except Exception as e:  # a network error: try again at the next tick
                    if self.lost is None and self._expired():
                        self.lost = f"the lease could not be renewed ({type(e).__name__})"
                    continue
                self.version = self._mode(put)
                self._renewed = time.monotonic()

    def _expired(self) -> bool:
        return time.monotonic() - self._renewed > self.ttl

    def start(self) -> None:
        """Renew the lease in a background thread until :meth:`release`."""
        self._thread = threading.Thread(target=self._renew, name="sectionrag-lease", daemon=True)
        self._thread.start()

    def check(self) -> None:
        """Raise IngestError if the lease was lost (called before every write)."""
        if self.lost is not None or self._expired():
            raise IngestError(
                f"the lock on {self.what} was lost: {self.lost or 'it was not renewed in time'}; "
                "nothing more is written by this ingest (run it again)"
            )

    def release(self) -> None:
        """Stop renewing and mark the lease released (if it is still ours)."""
        obstore, _, PreconditionError = _obstore()

        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.lost is not None:
            return
        try:
            obstore.put(self.store, self.key, self._body(released=True), mode=self.version)
        except PreconditionError:  # taken over meanwhile: it is someone else's now
            return
        except Exception:  # the next writer takes it over once stale
            return


@contextmanager
def lease_lock(
    store: Any, key: str, *, what: str, timeout: float = 0.0, ttl: float = DEFAULT_LEASE_SECONDS
) -> Iterator[Lease]:
    """Hold the lease ``key`` of ``store`` (an obstore store) for the ``with`` block.

    Raises:
        IngestError: another writer holds it after ``timeout`` seconds.
    """
    timeout = check_number("timeout", timeout, minimum=0)
    ttl = check_number("ttl", ttl, minimum=0.1)
    lease = Lease(store, key, what=what, ttl=ttl)
    lease.acquire(timeout)
    lease.start()
    try:
        yield lease
    finally:
        lease.release()
