"""Embedders: :class:`SentenceTransformerEmbedder` and :func:`get_embedder`.

Names accepted by :func:`get_embedder` (and the CLI's ``--embedder``): a
registered embedder (``bge-m3``, the default; ``minilm``, the packaged
offline MiniLM; ``static``, a model2vec model distilled from it; or a
plug-in's, see :func:`sectionrag.register`), any other sentence-transformers
model id, or a local model directory, each sentence-transformers name
optionally followed by ``@backend`` (``minilm@onnx-int8``: the form stores
record). Backends: ``torch``, ``onnx``, ``onnx-int8``, ``openvino`` (see
:class:`SentenceTransformerEmbedder`). Importing this package loads no model
and no torch.
"""

from __future__ import annotations

from typing import Any

from sectionrag import registry
from sectionrag.defaults import DEFAULT_EMBEDDER
from sectionrag.embedders.sentence_transformers import SentenceTransformerEmbedder, resolve_model
from sectionrag.errors import ConfigError
from sectionrag.protocols import Embedder

__all__ = ["SentenceTransformerEmbedder", "get_embedder", "resolve_model"]


def get_embedder(name: str | Embedder = DEFAULT_EMBEDDER, **options: Any) -> Embedder:
    """Return the embedder for a registered name, model id or local path; an Embedder is returned as is.

    Args:
        name: A registered name (``bge-m3``, ``minilm``, ``static``, a plug-in's),
            a sentence-transformers model id (optionally ``@backend``), a local model
            directory, or an object implementing the Embedder protocol.
        **options: Passed to the embedder's constructor (for sentence-transformers:
            ``batch_size``, ``device``, ``normalize``, ``trust_remote_code``, ``show_progress``,
            ``backend``, ``quantize``, ``threads``, ``cache_dir``).

    Raises:
        ConfigError: bad name or options.
        MissingDependencyError: ``minilm`` without ``pip install "sectionrag[minilm]"``
            (raised on first use for a backend whose package is missing: ``sectionrag[onnx]``,
            ``sectionrag[openvino]``).
        ModelNotAvailableError: a local path that does not exist.
    """
    if not isinstance(name, str):
        if isinstance(name, Embedder):
            if options:
                raise ConfigError(f"options {sorted(options)} cannot be applied to an Embedder instance")
            return name
        raise TypeError(f"name must be a str or an Embedder, not {type(name).__name__}")
    # a model id ("org/name") or a path is never looked for among plug-ins (reading them costs time)
    if registry.find("embedder", name, plugins="/" not in name and "\\" not in name) is not None:
        built: Embedder = registry.create("embedder", name, **options)  # checked where it is used
        return built
    try:
        return SentenceTransformerEmbedder(name, **options)
    except TypeError as e:
        raise ConfigError(f"invalid embedder options {sorted(options)}: {e}") from e
