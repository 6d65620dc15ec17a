"""Which runtime runs a sentence-transformers model, on how many threads, and where exports live (private).

Backends. ``torch`` runs the model as sentence-transformers loads it.
``onnx`` (ONNX Runtime) and ``openvino`` run a copy of the whole model
(transformer, pooling, normalisation) exported once from the local weights;
``onnx-int8`` is that ONNX graph with its weights quantised to int8
(dynamic quantisation). A spec is written ``backend`` or ``backend-variant``.

Names. An embedder running ``onnx`` or ``openvino`` is recorded as
``"<model>@<spec>"`` (``sentence-transformers/all-MiniLM-L6-v2@openvino``);
``torch`` keeps the bare model name. A collection records that name, so it
refuses vectors from another backend, and a search rebuilds the backend it
was indexed with.

Defaults. A preset with a measured CPU default (:data:`CPU_DEFAULTS`) uses it
when the model runs on the CPU and the backend's package is installed;
anything else, and every model on a GPU, uses ``torch``.

Exports are cached next to the weights (``<model dir>/sectionrag_exports/``)
when the model is a local directory that can be written, else under
``$SECTIONRAG_CACHE_DIR`` or the user cache (``~/.cache/sectionrag/exports``);
``$SECTIONRAG_CACHE_DIR`` or an explicit ``cache_dir`` win over both.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import math
import os
import platform
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag._hidden_imports import modules_hidden
from sectionrag.errors import ConfigError, MissingDependencyError

if TYPE_CHECKING:
    from sectionrag.embedders._hub import ResolvedModel

__all__ = [
    "BACKENDS",
    "CPU_DEFAULTS",
    "EXPORT_VERSION",
    "BackendSpec",
    "choose_backend",
    "export_dir",
    "busy_cpus",
    "free_threads",
    "import_openvino",
    "openvino_telemetry_off",
    "parse_spec",
    "progress_bars",
    "recorded_name",
    "require",
    "set_torch_threads",
    "split_name",
    "transformers_quiet",
]

logger = logging.getLogger("sectionrag.embedders")

#: backend -> quantisation variants it offers
BACKENDS: dict[str, tuple[str, ...]] = {"torch": (), "onnx": ("int8",), "openvino": ()}
#: backend -> (import names it needs, pip extra that installs them)
_NEEDS: dict[str, tuple[tuple[str, ...], str]] = {
    "onnx": (("onnxruntime", "onnx"), "onnx"),
    "openvino": (("openvino",), "openvino"),
}
#: hub id of a preset -> its backend on a CPU, chosen by ``benchmarks/bench_embed.py``
#: (the fastest whose recall@5 is within 0.5 points of torch's)
CPU_DEFAULTS: dict[str, str] = {
    "sentence-transformers/all-MiniLM-L6-v2": "openvino",
    "BAAI/bge-m3": "openvino",
}
#: bump when the layout or the contents of an export change
EXPORT_VERSION = 1
_EXPORTS = "sectionrag_exports"
_SEPARATOR = "@"


@dataclass(frozen=True, slots=True)
class BackendSpec:
    """A backend and its optional quantisation.

    Attributes:
        backend: ``torch``, ``onnx`` or ``openvino``.
        quantize: ``None`` or a variant the backend offers (``int8`` for ``onnx``).
    """

    backend: str
    quantize: str | None = None

    @property
    def label(self) -> str:
        """``backend`` or ``backend-quantize`` (``onnx-int8``)."""
        return self.backend if self.quantize is None else f"{self.backend}-{self.quantize}"

    @property
    def exported(self) -> bool:
        """Whether the model runs from an export rather than from torch."""
        return self.backend != "torch"


def _choices() -> str:
    labels = [b for b in BACKENDS] + [f"{b}-{q}" for b, qs in BACKENDS.items() for q in qs]
    return ", ".join(labels)


def parse_spec(backend: str, quantize: str | None = None) -> BackendSpec:
    """Parse ``backend`` (``onnx`` or ``onnx-int8``) and ``quantize`` into a :class:`BackendSpec`.

    Raises:
        ConfigError: an unknown backend or variant, or a variant given twice differently.
        TypeError: ``backend`` or ``quantize`` is not a str.
    """
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a str, not {type(backend).__name__}")
    if quantize is not None and not isinstance(quantize, str):
        raise TypeError(f"quantize must be a str or None, not {type(quantize).__name__}")
    name, _, variant = backend.strip().lower().partition("-")
    if name not in BACKENDS:
        raise ConfigError(f"unknown embedding backend {backend!r}; choose one of: {_choices()}")
    q = quantize.strip().lower() if quantize else None
    if variant:
        if q is not None and q != variant:
            raise ConfigError(f"backend {backend!r} and quantize={quantize!r} disagree; give one of them")
        q = variant
    if q is not None and q not in BACKENDS[name]:
        offered = ", ".join(BACKENDS[name]) or "none"
        raise ConfigError(
            f"backend {name!r} offers no {q!r} variant (offered: {offered}); choose one of: {_choices()}"
        )
    return BackendSpec(name, q)


def split_name(model: str) -> tuple[str, BackendSpec | None]:
    """Split a recorded name ``"<model>@<spec>"`` into the model and its spec (``None``: no suffix)."""
    head, sep, tail = model.rpartition(_SEPARATOR)
    if not sep or not head or Path(model).expanduser().exists():
        return model, None
    try:
        return head, parse_spec(tail)
    except ConfigError:
        return model, None  # an "@" that is part of the model's own name or path


def recorded_name(model_name: str, spec: BackendSpec) -> str:
    """Return the name stores record for ``model_name`` run by ``spec`` (torch: the bare name)."""
    return model_name if not spec.exported else f"{model_name}{_SEPARATOR}{spec.label}"


_ENV_LOCK = threading.Lock()


@contextmanager
def openvino_telemetry_off() -> Iterator[None]:
    """Import OpenVINO, or convert a model with it, inside this block without its usage reports.

    OpenVINO starts its telemetry when imported and again when it converts a
    model and, unless the machine opted out, sends each event to Intel from a
    forked process (a fork of a process holding lancedb's runtime warns and
    may deadlock). The telemetry declines under ``CI=true``, which is set only
    inside the block. ``SECTIONRAG_OPENVINO_TELEMETRY=1`` leaves OpenVINO's
    own choice alone.
    """
    if os.environ.get("SECTIONRAG_OPENVINO_TELEMETRY", "").strip().lower() in ("1", "true", "yes"):
        yield
        return
    with _ENV_LOCK:
        saved = os.environ.get("CI")
        os.environ["CI"] = "true"
        try:
            yield
        finally:
            if saved is None:
                os.environ.pop("CI", None)
            else:
                os.environ["CI"] = saved


_CONVERTER = "openvino.tools.ovc"


def _converter_on_demand(name: str) -> Any:
    """``openvino.convert_model`` for code that asks for it after :func:`import_openvino` (PEP 562)."""
    if name == "convert_model":
        from openvino.tools.ovc import convert_model

        return convert_model
    raise AttributeError(f"module 'openvino' has no attribute {name!r}")


def import_openvino() -> Any:
    """Import OpenVINO's runtime, without its model converter and with usage reports off.

    ``import openvino`` also imports the converter (``openvino.tools.ovc``,
    over a hundred modules and the telemetry) when it can; running an exported
    model never needs it, and OpenVINO's own import carries on without it. An
    export imports it itself (``from openvino.tools.ovc import convert_model``),
    and ``openvino.convert_model`` still works for other code: it imports the
    converter on first use.
    """
    with openvino_telemetry_off():
        if "openvino" in sys.modules:
            import openvino

            return openvino
        with modules_hidden(_CONVERTER, why="not needed to run a model"):
            import openvino
        if not hasattr(openvino, "convert_model") and "__getattr__" not in vars(openvino):
            openvino.__getattr__ = _converter_on_demand
        return openvino


def installed(spec: BackendSpec) -> bool:
    """Whether the packages ``spec`` needs are importable (checked without importing them)."""
    if not spec.exported:
        return True
    modules, _ = _NEEDS[spec.backend]
    return all(importlib.util.find_spec(m) is not None for m in modules)


def require(spec: BackendSpec) -> None:
    """Raise MissingDependencyError, naming the extra, unless ``spec``'s packages are installed."""
    if not spec.exported:
        return
    modules, extra = _NEEDS[spec.backend]
    for module in modules:
        try:
            if module == "openvino":
                import_openvino()
            else:
                importlib.import_module(module)
        except ImportError as e:
            raise MissingDependencyError(
                f"the {spec.label!r} embedding backend needs {module}: pip install "
                f'"sectionrag[{extra}]" (or use backend="torch")'
            ) from e


def _gpu_likely() -> bool:
    """Whether sentence-transformers would pick an accelerator; decided without importing torch."""
    if sys.platform == "darwin" and platform.machine() == "arm64":
        return True  # Apple silicon: torch uses MPS
    try:
        from importlib.metadata import PackageNotFoundError, version

        torch_version = version("torch")
    except PackageNotFoundError:
        return False
    if "+cpu" in torch_version:
        return False
    if os.environ.get("CUDA_VISIBLE_DEVICES", "x").strip() in ("", "-1"):
        return False
    nvidia = Path("/proc/driver/nvidia/gpus")
    if nvidia.is_dir() and any(nvidia.iterdir()):
        return True
    return Path("/dev/kfd").exists() or Path("/dev/nvidiactl").exists()


def choose_backend(model_name: str, device: str | None) -> BackendSpec:
    """Pick the backend for ``model_name`` when none was asked for (see the module docstring)."""
    on_cpu = device is not None and device.strip().lower().startswith("cpu")
    if device is None:
        on_cpu = not _gpu_likely()
    default = CPU_DEFAULTS.get(model_name)
    if not on_cpu or default is None:
        return BackendSpec("torch")
    spec = parse_spec(default)
    if not installed(spec):
        _, extra = _NEEDS[spec.backend]
        logger.info(
            '%s: the %s backend is not installed, using torch (pip install "sectionrag[%s]" embeds '
            "faster on a CPU)",
            model_name,
            spec.label,
            extra,
        )
        return BackendSpec("torch")
    return spec


@contextmanager
def progress_bars(show: bool) -> Iterator[None]:
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


@contextmanager
def transformers_quiet() -> Iterator[None]:
    """Hide transformers' progress bars and warnings (errors still show) inside the block."""
    hf_logging: Any
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - installed with sentence-transformers
        yield
        return
    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    try:
        with progress_bars(False):
            yield
    finally:
        hf_logging.set_verbosity(verbosity)


# -- threads ---------------------------------------------------------------------------------------


def _cpu_quota() -> float | None:
    """CPUs allowed by a cgroup v2 quota (containers), if any."""
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
    except (OSError, ValueError):
        return None
    if quota == "max":
        return None
    try:
        return max(1.0, float(quota) / float(period))
    except (ValueError, ZeroDivisionError):
        return None


#: how long :func:`free_threads` watches the machine's CPUs, in seconds
SAMPLE_SECONDS = 0.08


def _cpu_times() -> tuple[float, float, float] | None:
    """(busy, total, own) clock ticks so far: all CPUs' busy and total time, and this process's.

    Busy leaves out idle and I/O wait time, and the time of lower-priority
    (niced) processes unless this process is niced too, since those yield to
    it. ``None`` where ``/proc`` cannot be read (not Linux).
    """
    try:
        with open("/proc/stat", "rb") as f:
            fields = [float(x) for x in f.readline().split()[1:9]]
        with open("/proc/self/stat", "rb") as f:
            own_fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, ValueError, IndexError):
        return None
    if len(fields) < 8:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    busy = user + system + irq + softirq + steal + (nice if _niceness() > 0 else 0.0)
    try:
        own = float(own_fields[11]) + float(own_fields[12])  # utime, stime (all threads)
    except (ValueError, IndexError):
        return None
    return busy, sum(fields), own


def _niceness() -> int:
    try:
        return os.nice(0)
    except (AttributeError, OSError):
        return 0


def _machine_cpus() -> float:
    return float(os.cpu_count() or 1)


def busy_cpus(seconds: float = SAMPLE_SECONDS) -> float | None:
    """CPUs other processes kept busy over the next ``seconds``, or ``None`` if unknown.

    Read from the kernel's CPU counters before and after a short sleep, less
    this process's own time, so the answer is the load now (a load average
    still counts work that ended a minute ago).
    """
    import time

    first = _cpu_times()
    if first is None:
        return None
    time.sleep(seconds)
    second = _cpu_times()
    if second is None:
        return None
    busy, total, own = (b - a for a, b in zip(first, second, strict=True))
    if total <= 0:
        return None
    return max(0.0, (busy - own) / total * _machine_cpus())


def free_threads() -> int:
    """CPUs this process may use less what other processes keep busy, at least 1.

    The CPUs are those of the process's affinity (and a container's quota).
    The load taken is the smaller of the one-minute load average and the CPUs
    busy in a short sample now: the sample does not count work that just
    ended (the average lags by about a minute), and the average does not
    count a short burst the sample happens to catch. On a busy machine more
    threads than free CPUs make every thread wait on the others (a 2-CPU
    machine under load ran MiniLM 20 times slower on 2 torch threads than on 1).
    """
    try:
        cpus = float(len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        cpus = float(os.cpu_count() or 1)
    quota = _cpu_quota()
    if quota is not None:
        cpus = min(cpus, math.ceil(quota))
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows
        load = 0.0
    now = busy_cpus() if load >= 0.5 else None  # an idle average needs no sample
    if now is not None:
        load = min(load, now)
    return int(max(1, min(cpus, math.floor(cpus - load + 0.5))))


def set_torch_threads(threads: int) -> None:
    """Set torch's thread count (process-wide) to ``threads`` unless it already is."""
    import torch

    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


# -- where exports live -----------------------------------------------------------------------------


def _user_cache() -> Path:
    env = os.environ.get("SECTIONRAG_CACHE_DIR", "").strip()
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "sectionrag"


def _weights_key(resolved: ResolvedModel, location: Path) -> str:
    """Hash the model's files (names, sizes, modification times): changed weights, new export."""
    h = hashlib.sha256(f"{EXPORT_VERSION}\0{resolved.name}".encode())
    for path in sorted(location.glob("*")) + sorted(location.glob("*/*")):
        rel = path.relative_to(location).as_posix()
        if rel.startswith((_EXPORTS, ".")) or not path.is_file():
            continue
        st = path.stat()
        h.update(f"\0{rel}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return h.hexdigest()[:12]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def export_dir(
    resolved: ResolvedModel, spec: BackendSpec, model_dir: Path, cache_dir: str | Path | None = None
) -> Path:
    """Return the folder that holds (or will hold) ``spec``'s export of the model in ``model_dir``.

    ``cache_dir`` (or ``$SECTIONRAG_CACHE_DIR``) when given; else beside the
    weights of a writable local model; else the user cache.
    """
    leaf = f"{spec.label}-{_weights_key(resolved, model_dir)}"
    slug = resolved.name.strip("/").replace("/", "--").replace("\\", "--").replace(":", "")
    if cache_dir is not None:
        return Path(cache_dir).expanduser() / "exports" / slug / leaf
    if not os.environ.get("SECTIONRAG_CACHE_DIR", "").strip() and resolved.local:
        beside = model_dir / _EXPORTS
        if _writable(beside):
            return beside / leaf
    return _user_cache() / "exports" / slug / leaf
