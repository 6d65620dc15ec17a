"""Exporting a sentence-transformers model for ONNX Runtime or OpenVINO, once (private).

The whole model (transformer, pooling, dense layers, normalisation) is traced
from the local torch weights into one graph whose inputs are the tokenizer's
arrays and whose output is the sentence embedding, so running it needs no
torch. ``onnx`` is written by ``torch.onnx.export``; ``onnx-int8`` is that
graph after ONNX Runtime's dynamic int8 quantisation (per-channel weights);
``openvino`` is converted by OpenVINO from the torch module directly.

Before an export is kept it must reproduce the torch model's query and
document vectors on a few probe texts (long, short, mixed case, padded),
prompts included: cosine at least 0.9999 (0.95 for int8). A model whose
export does not (a pooling that excludes the prompt, an input the graph
cannot take) is refused with a message that says to use ``backend="torch"``.

Exports are written to a temporary folder beside the target and renamed into
place, so a crash or a concurrent export never leaves a half-written one.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import uuid
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag.embedders._backends import (
    EXPORT_VERSION,
    BackendSpec,
    import_openvino,
    openvino_telemetry_off,
    transformers_quiet,
)
from sectionrag.embedders._runtime import META, ONNX_FILE, OPENVINO_FILE, ExportedModel, read_meta
from sectionrag.errors import ConfigError, EmbeddingError, MissingDependencyError

if TYPE_CHECKING:
    from sectionrag.embedders._hub import ResolvedModel

__all__ = ["export", "load_or_export"]

logger = logging.getLogger("sectionrag.embedders")

_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_MODULES = frozenset({"Transformer", "Pooling", "Dense", "Normalize"})
_PROBES = [
    "Refund Policy: customers can return products within 7 days with a receipt.",
    "  Leading and trailing spaces, UPPER case and numbers 1234.  ",
    "short",
    "word " * 600,  # longer than any max_seq_length here: truncated
]
#: lowest cosine between an export's vectors and torch's, by quantisation
_AGREEMENT = {None: 0.9999, "int8": 0.95}


def _load_torch(location: str, trust_remote_code: bool, local_only: bool) -> Any:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise MissingDependencyError(
            'exporting a model needs sentence-transformers and torch: pip install "sentence-transformers>=3"'
        ) from e
    return SentenceTransformer(
        location, device="cpu", trust_remote_code=trust_remote_code, local_files_only=local_only
    )


def _describe(st: Any, name: str) -> dict[str, Any]:
    """Describe how ``st`` tokenizes and prompts, for the runtime; refuse what an export cannot do."""
    kinds = [type(m).__name__ for m in st]
    unsupported = [k for k in kinds if k not in _MODULES]
    if unsupported or not kinds or kinds[0] != "Transformer":
        raise ConfigError(
            f"model {name!r} has modules {kinds}; an export supports Transformer followed by "
            f"{', '.join(sorted(_MODULES - {'Transformer'}))}: use backend='torch'"
        )
    prompts = {str(k): str(v) for k, v in (getattr(st, "prompts", None) or {}).items()}
    pooling = next((m for m in st if type(m).__name__ == "Pooling"), None)
    if pooling is not None and not getattr(pooling, "include_prompt", True) and any(prompts.values()):
        raise ConfigError(
            f"model {name!r} pools without its prompt tokens, which an export cannot: use torch"
        )
    tok = st.tokenizer
    backend = getattr(tok, "backend_tokenizer", None)
    if backend is None or tok.pad_token is None:
        raise ConfigError(f"model {name!r} has no fast tokenizer with a pad token: use backend='torch'")
    default = getattr(st, "default_prompt_name", None)
    fallback = prompts.get(default, "") if default else ""
    transformer = st[0]
    return {
        "prompts": prompts,
        "default_prompt_name": default,
        "query_prompt": prompts.get("query", fallback),
        "document_prompt": next(
            (prompts[k] for k in ("document", "passage", "corpus") if k in prompts), fallback
        ),
        "query_length": getattr(transformer, "query_length", None),
        "document_length": getattr(transformer, "document_length", None),
        "max_seq_length": int(st.max_seq_length),
        "do_lower_case": bool(getattr(transformer, "do_lower_case", False)),
        "pad_id": int(tok.pad_token_id),
        "pad_token": str(tok.pad_token),
        "padding_side": str(getattr(tok, "padding_side", "right") or "right"),
        "dimension": int(
            (getattr(st, "get_embedding_dimension", None) or st.get_sentence_embedding_dimension)()
        ),
    }


def _inputs(st: Any, name: str) -> tuple[list[str], dict[str, Any]]:
    tokenize = getattr(st, "preprocess", None) or st.tokenize  # sentence-transformers < 6: tokenize
    features = tokenize(["an example text", "short"])
    tensors = {k: v for k, v in features.items() if hasattr(v, "shape")}
    extra = sorted(set(tensors) - set(_INPUTS))
    if extra or "input_ids" not in tensors:
        raise ConfigError(f"model {name!r} takes inputs {sorted(tensors)} that an export cannot: use torch")
    names = [n for n in _INPUTS if n in tensors]
    return names, {n: tensors[n] for n in names}


def _module(st: Any, names: list[str]) -> Any:
    import torch

    class Embed(torch.nn.Module):
        """The model from token arrays to sentence embeddings, as one module."""

        def __init__(self) -> None:
            super().__init__()
            self.st = st

        def forward(self, *arrays: Any) -> Any:
            return self.st(dict(zip(names, arrays, strict=True)))["sentence_embedding"]

    return Embed().eval()


def _export_onnx(module: Any, names: list[str], example: dict[str, Any], folder: Path) -> None:
    import torch

    axes = {n: {0: "batch", 1: "tokens"} for n in names}
    axes["sentence_embedding"] = {0: "batch"}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer notes about shapes the checks below cover
        torch.onnx.export(
            module,
            tuple(example[n] for n in names),
            str(folder / ONNX_FILE),
            input_names=names,
            output_names=["sentence_embedding"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )


def _quantize_int8(folder: Path) -> str:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    source = folder / ONNX_FILE
    target = folder / "model_int8.onnx"
    size = sum(p.stat().st_size for p in folder.iterdir() if p.name.startswith(ONNX_FILE))
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its advice to pre-process the graph, logged on every call
    try:
        quantize_dynamic(
            str(source),
            str(target),
            per_channel=True,
            weight_type=QuantType.QInt8,
            use_external_data_format=size > 1_500_000_000,
        )
    finally:
        root.setLevel(level)
    for p in list(folder.iterdir()):
        if p.name.startswith(ONNX_FILE):
            p.unlink()
    return target.name


def _export_openvino(module: Any, names: list[str], example: dict[str, Any], folder: Path) -> None:
    import torch

    ov = import_openvino()
    with openvino_telemetry_off():
        from openvino.tools.ovc import convert_model

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            graph = convert_model(module, example_input=tuple(example[n] for n in names))
    for port, n in zip(graph.inputs, names, strict=True):
        port.get_tensor().set_names({n})
    ov.save_model(graph, str(folder / OPENVINO_FILE), compress_to_fp16=False)


def _verify(st: Any, folder: Path, spec: BackendSpec, name: str) -> None:
    import numpy as np

    runtime = ExportedModel(folder, threads=1, precision="f32")
    floor = _AGREEMENT[spec.quantize]
    for task in ("query", "document"):
        encode = getattr(st, f"encode_{task}")
        want = encode(_PROBES, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        got = getattr(runtime, f"encode_{task}")(_PROBES, normalize_embeddings=True)
        agreement = float(np.min(np.sum(np.asarray(want, dtype=np.float32) * got, axis=1)))
        if not agreement >= floor:
            raise EmbeddingError(
                f"the {spec.label} export of {name!r} does not reproduce its {task} vectors (cosine "
                f"{agreement:.4f} < {floor}); use backend='torch'"
            )


def export(
    resolved: ResolvedModel, spec: BackendSpec, target: Path, *, trust_remote_code: bool, local_only: bool
) -> None:
    """Export the model to ``target`` (a folder that must not exist yet); see the module docstring.

    Raises:
        ConfigError: the model cannot be exported (the message says to use torch).
        EmbeddingError: the export failed or does not reproduce the torch vectors.
        MissingDependencyError: sentence-transformers, torch or the backend's package is missing.
    """
    logger.warning(
        "exporting %s for %s once, into %s (later loads reuse it)", resolved.name, spec.label, target
    )
    with transformers_quiet():  # a weights bar and config warnings that mean nothing here
        st = _load_torch(resolved.location, trust_remote_code, local_only)
        meta = _describe(st, resolved.name)
        names, example = _inputs(st, resolved.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.parent / f".tmp-{target.name}-{uuid.uuid4().hex[:8]}"
        tmp.mkdir()
        try:
            (tmp / "tokenizer.json").write_text(st.tokenizer.backend_tokenizer.to_str(), encoding="utf-8")
            module = _module(st, names)
            if spec.backend == "onnx":
                _export_onnx(module, names, example, tmp)
                file = _quantize_int8(tmp) if spec.quantize == "int8" else ONNX_FILE
            else:
                _export_openvino(module, names, example, tmp)
                file = OPENVINO_FILE
            meta.update(
                {"version": EXPORT_VERSION, "model": resolved.name, "backend": spec.backend,
                 "quantize": spec.quantize, "inputs": names, "file": file}
            )  # fmt: skip
            (tmp / META).write_text(json.dumps(meta, indent=2, sort_keys=True), encoding="utf-8")
            _verify(st, tmp, spec, resolved.name)
            try:
                os.rename(tmp, target)
            except OSError:
                if read_meta(target) is None:  # not a concurrent export that won the race
                    raise
        except (ConfigError, EmbeddingError, MissingDependencyError):
            raise
        except Exception as e:
            raise EmbeddingError(
                f"exporting {resolved.name!r} for {spec.label} failed: {type(e).__name__}: {e}; "
                "use backend='torch'"
            ) from e
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    stale = re.compile(re.escape(spec.label) + r"-[0-9a-f]{12}")
    for old in target.parent.iterdir():  # exports of earlier weights
        if old != target and old.is_dir() and stale.fullmatch(old.name):
            shutil.rmtree(old, ignore_errors=True)


def load_or_export(
    resolved: ResolvedModel,
    spec: BackendSpec,
    *,
    threads: int,
    trust_remote_code: bool,
    local_only: bool,
    cache_dir: str | Path | None,
    show_progress: bool = False,
) -> ExportedModel:
    """Load ``spec``'s export of the model, exporting it first if there is none.

    ``local_only`` is :func:`~sectionrag.embedders._hub.check_available`'s answer.
    """
    from sectionrag.embedders._backends import export_dir, progress_bars
    from sectionrag.embedders._hub import model_file

    config = model_file(resolved, "config.json")
    if config is None:  # a hub model not downloaded yet: the export downloads it
        with progress_bars(show_progress):
            _load_torch(resolved.location, trust_remote_code, local_only)
        config = model_file(resolved, "config.json")
        if config is None:
            raise EmbeddingError(f"cannot find the files of {resolved.name!r} after loading it")
    folder = export_dir(resolved, spec, Path(config).parent, cache_dir)
    meta = read_meta(folder)
    if meta is None or meta.get("version") != EXPORT_VERSION:
        if meta is not None:
            shutil.rmtree(folder, ignore_errors=True)
        with progress_bars(show_progress):
            export(resolved, spec, folder, trust_remote_code=trust_remote_code, local_only=local_only)
    return ExportedModel(folder, threads=threads)
