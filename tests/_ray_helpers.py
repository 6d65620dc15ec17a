"""Stages that kill their own worker process once, for the fault tests of distributed ingest.

Imported by Ray workers (``tests`` is on their ``PYTHONPATH``, see ``conftest.ray_cluster``).
A marker file makes each kill happen once: the retried work then succeeds.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from typing import Any

from sectionrag.parsers import AutoParser
from sectionrag.testing import HashEmbedder


def _die_once(marker: str) -> None:
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)


class KillOnceEmbedder(HashEmbedder):
    """A HashEmbedder whose process is SIGKILLed at its first ``embed_documents`` (once per marker)."""

    def __init__(self, marker: str, **kw: Any) -> None:
        super().__init__(**kw)
        self._marker = marker

    def embed_documents(self, texts: Sequence[str]) -> Any:
        _die_once(self._marker)
        return super().embed_documents(texts)


class KillOnceParser(AutoParser):
    """An AutoParser whose process is SIGKILLed when it parses ``victim`` (once per marker)."""

    def __init__(self, victim: str, marker: str) -> None:
        super().__init__()
        self._victim = victim
        self._marker = marker

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), "victim": self._victim, "marker": self._marker}

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._victim, self._marker = state["victim"], state["marker"]

    def parse(self, source: Any, *, name: str | None = None) -> Any:
        if name is not None and name.endswith(self._victim):
            _die_once(self._marker)
        return super().parse(source, name=name)


class SlowHashEmbedder(HashEmbedder):
    """A HashEmbedder that takes 20 ms a text: an ingest long enough to be killed in the middle."""

    def embed_documents(self, texts: Sequence[str]) -> Any:
        import time

        time.sleep(0.02 * len(texts))
        return super().embed_documents(texts)
