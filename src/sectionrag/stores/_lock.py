"""A single-writer lock on a file: one ingest per collection at a time (private).

The lock is an OS advisory lock (``flock`` on POSIX, ``msvcrt.locking`` on
Windows) on a small file next to the data, so it is released by the kernel
when its holder exits, even by SIGKILL: a crash never leaves a stale lock.
The holder writes its pid, host and start time into the file, which the
error message of a refused writer quotes.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from sectionrag._checks import check_number
from sectionrag.errors import IngestError

__all__ = ["file_lock", "lock_is_free"]

_POLL_SECONDS = 0.05


def _try_lock(fh: IO[bytes]) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            fh.seek(0)
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fh: IO[bytes]) -> None:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return f" ({text})" if text else ""


def lock_is_free(path: Path) -> bool:
    """Whether no one holds the lock on ``path`` now (a missing file is free; an unreadable one is not)."""
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return True
    except OSError:
        return False
    with fh:
        if not _try_lock(fh):
            return False
        _unlock(fh)
        return True


@contextmanager
def file_lock(path: Path, *, what: str, timeout: float = 0.0) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) for the ``with`` block.

    Args:
        path: The lock file.
        what: What the lock protects, for the error message ("collection 'default' in ./db").
        timeout: Seconds to wait for a busy lock (0: fail at once).

    Raises:
        IngestError: another writer holds the lock after ``timeout`` seconds.
    """
    timeout = check_number("timeout", timeout, minimum=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    fh = path.open("a+b")
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fh):
            if time.monotonic() >= deadline:
                waited = f" after waiting {timeout:g} s" if timeout else ""
                raise IngestError(
                    f"another ingest is writing to {what}{_holder(path)}{waited}; "
                    "wait for it to finish, or pass a longer lock_timeout (CLI: --wait SECONDS)"
                )
            time.sleep(_POLL_SECONDS)
        try:
            fh.seek(0)
            fh.truncate()
            started = time.strftime("%Y-%m-%d %H:%M:%S")
            holder = f"pid {os.getpid()} on {socket.gethostname()}, thread {threading.get_ident()}"
            fh.write(f"{holder}, since {started}".encode())
            fh.flush()
            yield
        finally:
            try:
                fh.seek(0)
                fh.truncate()
            finally:
                _unlock(fh)
    finally:
        fh.close()
