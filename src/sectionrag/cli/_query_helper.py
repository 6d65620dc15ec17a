"""Embedding a search's query in a helper process while the command opens the collection (private).

``sectionrag search`` in vector or hybrid mode needs two slow things that do
not depend on each other: importing lancedb to open the collection, and
loading the model to embed the query. Both are mostly Python bytecode, so a
thread loading the model (:class:`~sectionrag.cli._sidecar.ModelPreload`)
takes turns with the import under the interpreter lock instead of running
beside it. :class:`QueryHelper` forks the command's process first, before
anything that starts threads of its own is imported: the child loads the
model the embedder hint names, embeds the query and sends the vector back
through a pipe, with a description of the embedder that made it, while the
parent imports lancedb and opens the collection on another CPU.

The collection's record stays the truth: the parent uses the vector only
when the embedder it restored from the record describes itself exactly as
the child's did and the vector has the recorded length; otherwise (a stale
or wrong hint, a child that failed) it loads the model itself, as without a
helper. The child writes nothing on the terminal (its standard streams are
``/dev/null``) and leaves through ``os._exit``; the parent always waits for
it, killing it first when it no longer needs it, so no zombie is left.

Forking is only done on Linux (elsewhere a forked child may not run the
system's own libraries safely), from a process with one thread and none of
the native libraries that start their own (otherwise the thread preload is
used).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
import threading
from typing import Any, NoReturn

from sectionrag.cli._sidecar import embedder_hint, hinted_embedder, read_embedder_hint

__all__ = ["THREADED_MODULES", "QueryHelper", "can_fork"]

logger = logging.getLogger(__name__)

#: modules that start native threads (or runtimes) of their own: once one is imported, no fork
THREADED_MODULES = (
    "lancedb",
    "pyarrow",
    "torch",
    "openvino",
    "onnxruntime",
    "tokenizers",
    "transformers",
    "sentence_transformers",
    "ray",
)

#: bytes of the length prefix of the child's header
_PREFIX = 4


def can_fork() -> bool:
    """Whether this process may fork a helper: Linux, one thread, no threaded native library imported."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    if threading.active_count() != 1:
        return False
    return not any(name in sys.modules for name in THREADED_MODULES)


class QueryHelper:
    """A forked child embedding one query with the hinted model (see the module docstring).

    Use :meth:`start`, then :meth:`vector` once the collection is open, and
    :meth:`close` in all cases (a ``with`` block does it).
    """

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self._fd: int | None = fd
        self._reaped = False
        self.exit_code: int | None = None

    @classmethod
    def start(cls, args: Any) -> QueryHelper | None:
        """Fork the helper for ``--db``/``--collection``'s hinted model; ``None`` when it cannot be used."""
        if not can_fork():
            return None
        hint = read_embedder_hint(args)
        if hint is None:
            return None
        if not can_fork():  # reading the hint imported nothing threaded, but make sure
            return None
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError as e:  # out of processes or memory: the command works without a helper
            logger.debug("cannot fork the query helper: %s", e)
            os.close(read_fd)
            os.close(write_fd)
            return None
        if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
            os.close(read_fd)
            _child(write_fd, hint, args.collection, getattr(args, "backend", None), args.query)
        os.close(write_fd)
        logger.debug("query helper process %d started", pid)
        return cls(pid, read_fd)

    def __enter__(self) -> QueryHelper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def vector(self, embedder: Any, dimension: int) -> Any:
        """Wait for the helper; return its query vector, or ``None`` when it cannot be used.

        ``embedder`` is the one restored from the collection's record and
        ``dimension`` the recorded one: the vector counts only when the child's
        embedder described itself the same and the vector has that length.
        """
        data = self._receive()
        self._reap(kill=False)
        if self.exit_code != 0 or data is None:
            logger.debug("the query helper failed (exit code %s): embedding here", self.exit_code)
            return None
        try:
            vector, described = _decode(data)
            expected = json.loads(json.dumps(embedder_hint(embedder, dimension)))
        except Exception as e:  # a garbled answer, an embedder that cannot describe itself
            logger.debug("the query helper's answer cannot be used (%s): embedding here", e)
            return None
        if described != expected or vector.shape != (dimension,):
            logger.debug("the query helper embedded with another embedder than recorded: embedding here")
            return None
        logger.debug("the query vector came from the helper process")
        return vector

    def close(self) -> None:
        """Stop the child if it still runs, and reap it (idempotent)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        self._reap(kill=True)

    def _receive(self) -> bytes | None:
        """Read everything the child writes (until it exits); ``None`` if reading failed."""
        if self._fd is None:
            return None
        chunks: list[bytes] = []
        try:
            while True:
                chunk = os.read(self._fd, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError as e:
            logger.debug("cannot read the query helper's answer: %s", e)
            return None
        finally:
            os.close(self._fd)
            self._fd = None
        return b"".join(chunks)

    def _reap(self, *, kill: bool) -> None:
        if self._reaped:
            return
        if kill:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        while True:
            try:
                _, status = os.waitpid(self.pid, 0)
            except InterruptedError:  # pragma: no cover - retried by Python itself since 3.5
                continue
            except ChildProcessError:  # reaped by someone else
                self._reaped = True
                return
            break
        self._reaped = True
        self.exit_code = os.waitstatus_to_exitcode(status)


def _encode(vector: Any, described: dict[str, Any]) -> bytes:
    """Return the child's answer: a length-prefixed JSON header (embedder, dtype, shape), then the vector."""
    header = json.dumps({"embedder": described, "dtype": vector.dtype.str, "shape": list(vector.shape)})
    raw = header.encode("utf-8")
    body: bytes = vector.tobytes()
    return len(raw).to_bytes(_PREFIX, "big") + raw + body


def _decode(data: bytes) -> tuple[Any, Any]:
    """Return ``(vector, embedder description)`` from the child's answer.

    Raises:
        ValueError: the answer is truncated or malformed.
    """
    import numpy as np

    size = int.from_bytes(data[:_PREFIX], "big")
    header = json.loads(data[_PREFIX : _PREFIX + size].decode("utf-8"))
    dtype = np.dtype(header["dtype"])
    shape = tuple(int(n) for n in header["shape"])
    body = data[_PREFIX + size :]
    if dtype.kind != "f" or len(body) != dtype.itemsize * int(np.prod(shape)):
        raise ValueError("the vector's bytes do not match its header")
    vector = np.frombuffer(body, dtype=dtype).reshape(shape).copy()
    return vector, header["embedder"]


def _child(fd: int, hint: dict[str, Any], collection: str, backend: str | None, query: str) -> NoReturn:
    """Embed ``query`` with the hinted model, write the answer to ``fd`` and exit (never returns)."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDWR)
        for std in (0, 1, 2):  # nothing of the child reaches the terminal, tracebacks included
            os.dup2(null, std)
        import numpy as np

        embedder = hinted_embedder(hint, collection, backend)
        vector = np.asarray(embedder.embed_query(query))
        data = memoryview(_encode(vector, embedder_hint(embedder, int(vector.shape[0]))))
        while data:
            data = data[os.write(fd, data) :]
        code = 0
    except BaseException:  # the parent notices the exit code and embeds the query itself
        pass
    finally:
        os._exit(code)
