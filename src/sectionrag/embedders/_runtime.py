"""Running an exported sentence-transformers model on ONNX Runtime or OpenVINO, without torch (private).

:class:`ExportedModel` reads a folder written by
:func:`sectionrag.embedders._export.export` (the graph, ``tokenizer.json``
and ``sectionrag_export.json``) and offers the part of the
``SentenceTransformer`` API the embedder uses: ``encode``, ``encode_query``,
``encode_document``, ``max_seq_length``, ``prompts`` and the embedding
dimension. Tokenizing is done with the model's own fast tokenizer
(truncated to ``max_seq_length``, padded to the longest text of a batch);
texts are run longest first, so a batch holds texts of similar length.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag.embedders._backends import import_openvino
from sectionrag.errors import EmbeddingError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["META", "ExportedModel", "read_meta"]

#: the description of an export, written last (its presence marks a finished export)
META = "sectionrag_export.json"
ONNX_FILE = "model.onnx"
OPENVINO_FILE = "openvino_model.xml"


def read_meta(folder: Path) -> dict[str, Any] | None:
    """Return an export's description, or ``None`` when the folder holds no finished export."""
    try:
        with open(folder / META, encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


class _Tokenizer:
    """Holds the ``tokenizers.Tokenizer`` (as ``backend_tokenizer``, like a transformers fast tokenizer)."""

    def __init__(self, backend: Any) -> None:
        self.backend_tokenizer = backend


class ExportedModel:
    """An exported model, loaded and ready to embed.

    Args:
        folder: The export folder.
        threads: Threads the runtime may use for one batch.
        precision: OpenVINO inference precision (``"f32"``, ``"bf16"``); ``None``
            keeps OpenVINO's default for the CPU (bf16 where the CPU computes
            bf16 natively, f32 elsewhere). Ignored by ONNX Runtime.

    Raises:
        EmbeddingError: the folder holds no usable export.
    """

    def __init__(self, folder: Path, *, threads: int, precision: str | None = None) -> None:
        import tokenizers

        meta = read_meta(folder)
        if meta is None:
            raise EmbeddingError(f"no finished model export in {folder}")
        self.folder = folder
        self.meta = meta
        self.backend: str = meta["backend"]
        self.threads = threads
        self.max_seq_length: int = int(meta["max_seq_length"])
        self.prompts: dict[str, str] = dict(meta.get("prompts") or {})
        self.default_prompt_name: str | None = meta.get("default_prompt_name")
        self._inputs: list[str] = list(meta["inputs"])
        self.precision = "f32"
        self._dimension = int(meta["dimension"])
        raw = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer = _Tokenizer(raw)
        self._tokenizers: dict[int, Any] = {}
        self._lock = threading.Lock()
        self._run_batch = self._open(precision)

    # -- the runtime -----------------------------------------------------------------------------
    def _open(self, precision: str | None) -> Any:
        if self.backend == "onnx":
            return self._open_onnx()
        if self.backend == "openvino":
            return self._open_openvino(precision)
        raise EmbeddingError(f"unknown backend {self.backend!r} in {self.folder / META}")

    def _open_onnx(self) -> Any:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # idle threads sleep instead of spinning: spinning steals the CPU of a shared machine
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = ort.InferenceSession(
            str(self.folder / self.meta["file"]), options, providers=["CPUExecutionProvider"]
        )
        output = session.get_outputs()[0].name

        def run(feeds: dict[str, Any]) -> Any:
            return session.run([output], feeds)[0]

        return run

    def _open_openvino(self, precision: str | None) -> Any:
        ov = import_openvino()

        core = ov.Core()
        config: dict[str, Any] = {
            "INFERENCE_NUM_THREADS": self.threads,
            "PERFORMANCE_HINT": "LATENCY",
            "ENABLE_CPU_PINNING": False,
        }
        if precision is not None:
            config["INFERENCE_PRECISION_HINT"] = precision
        compiled = core.compile_model(core.read_model(str(self.folder / self.meta["file"])), "CPU", config)
        hint = compiled.get_property("INFERENCE_PRECISION_HINT")
        #: the precision OpenVINO computes in (``bf16`` or ``f32``)
        self.precision = str(getattr(hint, "to_string", lambda: hint)())
        request = compiled.create_infer_request()

        def run(feeds: dict[str, Any]) -> Any:
            with self._lock:  # one infer request: one batch at a time
                request.infer(feeds)
                return request.get_output_tensor(0).data.copy()

        return run

    # -- the SentenceTransformer API the embedder uses --------------------------------------------
    def get_embedding_dimension(self) -> int:
        """Length of each vector."""
        return self._dimension

    get_sentence_embedding_dimension = get_embedding_dimension

    def _tokenizer_for(self, length: int) -> Any:
        tok = self._tokenizers.get(length)
        if tok is None:
            import tokenizers

            tok = tokenizers.Tokenizer.from_str(self.tokenizer.backend_tokenizer.to_str())
            tok.enable_truncation(max_length=length, strategy="longest_first")
            tok.enable_padding(
                direction=self.meta.get("padding_side", "right"),
                pad_id=int(self.meta["pad_id"]),
                pad_token=str(self.meta["pad_token"]),
            )
            self._tokenizers[length] = tok
        return tok

    def preprocess(self, texts: Sequence[str], *, max_length: int | None = None) -> dict[str, Any]:
        """Tokenize one batch into the graph's inputs (int64 arrays padded to the longest text)."""
        import numpy as np

        if self.meta.get("do_lower_case"):
            texts = [t.lower() for t in texts]
        encodings = self._tokenizer_for(max_length or self.max_seq_length).encode_batch(list(texts))
        fields = {"input_ids": "ids", "attention_mask": "attention_mask", "token_type_ids": "type_ids"}
        return {
            name: np.array([getattr(e, fields[name]) for e in encodings], dtype=np.int64)
            for name in self._inputs
        }

    def encode(
        self,
        sentences: Sequence[str],
        *,
        batch_size: int = 32,
        normalize_embeddings: bool = False,
        convert_to_numpy: bool = True,
        show_progress_bar: bool = False,
        prompt_name: str | None = None,
        prompt: str | None = None,
        **_: Any,
    ) -> npt.NDArray[np.float32]:
        """Embed ``sentences`` (with ``prompt``, or the prompt named ``prompt_name``, or the default one)."""
        if prompt is None:
            name = prompt_name if prompt_name is not None else self.default_prompt_name
            prompt = self.prompts.get(name, "") if name is not None else ""
        return self._encode(
            list(sentences), prompt, None, batch_size, normalize_embeddings, show_progress_bar
        )

    def encode_query(self, sentences: Sequence[str], **kwargs: Any) -> npt.NDArray[np.float32]:
        """Embed queries with the prompt the model uses for queries."""
        return self._encode_as("query", sentences, **kwargs)

    def encode_document(self, sentences: Sequence[str], **kwargs: Any) -> npt.NDArray[np.float32]:
        """Embed documents with the prompt the model uses for documents."""
        return self._encode_as("document", sentences, **kwargs)

    def _encode_as(self, task: str, sentences: Sequence[str], **kwargs: Any) -> npt.NDArray[np.float32]:
        if kwargs.get("prompt") is not None or kwargs.get("prompt_name") is not None:
            return self.encode(sentences, **kwargs)
        return self._encode(
            list(sentences),
            str(self.meta[f"{task}_prompt"]),
            self.meta.get(f"{task}_length"),
            int(kwargs.get("batch_size", 32)),
            bool(kwargs.get("normalize_embeddings", False)),
            bool(kwargs.get("show_progress_bar", False)),
        )

    def _encode(
        self,
        texts: list[str],
        prompt: str,
        max_length: int | None,
        batch_size: int,
        normalize: bool,
        progress: bool,
    ) -> npt.NDArray[np.float32]:
        import numpy as np

        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # similar lengths together
        starts = range(0, len(order), max(1, batch_size))
        if progress:
            from tqdm.auto import tqdm

            starts = tqdm(starts, desc="batches", leave=False)
        for start in starts:
            idx = order[start : start + batch_size]
            feeds = self.preprocess([prompt + texts[i] for i in idx], max_length=max_length)
            try:
                out[idx] = np.asarray(self._run_batch(feeds), dtype=np.float32).reshape(len(idx), -1)
            except Exception as e:
                raise EmbeddingError(
                    f"the {self.backend} runtime failed on a batch: {type(e).__name__}: {e}"
                ) from e
        if normalize:
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            out /= np.maximum(norms, 1e-12)
        return out
