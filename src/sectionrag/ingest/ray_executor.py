"""Distributed ingest on Ray Data: :class:`RayExecutor` (extra ``sectionrag[ray]``).

The runner stays in the calling process (the *driver*): it decides what
changed, holds the collection's lock and is the only writer, exactly as in a
local ingest. This executor moves the per-source work onto a Ray cluster:

- **parsing and chunking** run as Ray tasks, one file per block, each task
  reading, hashing, parsing, chunking and enriching one source
  (:meth:`~sectionrag.ingest.prepare.Preparer.prepare`, the code a local
  ingest runs). Files must be readable at the same path on every node (a
  shared file system); Documents given in memory travel with the job;
- **embedding** runs in an actor pool: each actor builds the embedder once
  (its weights load on the first batch, on a GPU when the actor has one),
  looks every chunk text up in the collection's embedding cache and embeds
  only the texts it lacks;
- the driver receives the sources in the order it gave them (Ray Data's
  ``preserve_order``), with their vectors, and writes them as a local run
  does: new vectors to the cache, each group of sources in one commit, then
  their records.

Workers never write to the collection, so a worker that dies is simply
retried by Ray (tasks are re-run, actors restarted, their batches resent),
and what reaches the driver is the same. Without an ``address`` the first
run starts a local Ray (``ray.init()``); with one it joins that cluster.
"""

from __future__ import annotations

import copy
import pickle
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from sectionrag._checks import check_int, check_number
from sectionrag.errors import ConfigError, IngestError, MissingDependencyError
from sectionrag.ingest.executors import Work
from sectionrag.ingest.prepare import Failed, Job, Prepared, Preparer, Ready, text_key

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["RayExecutor"]

#: what ``RayExecutor`` says when Ray is missing
_INSTALL = 'executor="ray" needs Ray Data: pip install "sectionrag[ray]"'


def _import_ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError as e:
        raise MissingDependencyError(_INSTALL) from e
    return ray


class RayExecutor:
    """Parse and chunk as Ray tasks, embed in a pool of Ray actors; the caller writes.

    Args:
        address: The Ray cluster to join (``"auto"``, ``"ray://head:10001"``, ...).
            ``None``: the Ray this process already runs, else a new local one.
        embed_actors: Embedding actors (each loads the model once). ``None``: one
            per GPU of the cluster, or 1 on a cluster without GPUs.
        cpus_per_actor: CPUs each embedding actor reserves.
        gpus_per_actor: GPUs each embedding actor reserves. ``None``: 1 when the
            cluster has GPUs and the embedder runs torch, else 0. The embedder is then
            moved to ``device``. An embedder running an export (``onnx``,
            ``openvino``) runs on CPUs: build it with ``backend="torch"`` for GPUs.
        batch_size: Chunk texts per embedding call in an actor (``None``: the
            pipeline's ``batch_size``).
        parse_cpus: CPUs each parsing task reserves.
        device: Device for the embedder in the actors (``"cuda"``); ``None``:
            ``"cuda"`` for GPU actors, else the embedder's own. Speed only: it is
            not part of the recorded configuration.
        init_options: Keyword arguments for ``ray.init`` when this executor starts
            or joins Ray (``num_cpus``, ``object_store_memory``, ``runtime_env``, ...).

    Raises:
        ConfigError: an option out of range.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        embed_actors: int | None = None,
        cpus_per_actor: float = 1.0,
        gpus_per_actor: float | None = None,
        batch_size: int | None = None,
        parse_cpus: float = 1.0,
        device: str | None = None,
        init_options: Mapping[str, Any] | None = None,
    ) -> None:
        if address is not None and not isinstance(address, str):
            raise TypeError(f"address must be a str, not {type(address).__name__}")
        self.address = address
        self.embed_actors = (
            None if embed_actors is None else check_int("embed_actors", embed_actors, minimum=1)
        )
        self.cpus_per_actor = check_number("cpus_per_actor", cpus_per_actor, minimum=0)
        self.gpus_per_actor = (
            None if gpus_per_actor is None else check_number("gpus_per_actor", gpus_per_actor, minimum=0)
        )
        self.batch_size = None if batch_size is None else check_int("batch_size", batch_size, minimum=1)
        self.parse_cpus = check_number("parse_cpus", parse_cpus, minimum=0)
        if parse_cpus == 0 and cpus_per_actor == 0:
            raise ConfigError("parse_cpus and cpus_per_actor cannot both be 0")
        self.device = device
        self.init_options = dict(init_options or {})

    def __repr__(self) -> str:
        return (
            f"RayExecutor(address={self.address!r}, embed_actors={self.embed_actors!r}, "
            f"gpus_per_actor={self.gpus_per_actor!r})"
        )

    # -- the cluster -----------------------------------------------------------------
    def connect(self) -> Any:
        """Join the cluster (``address``), or start a local Ray if this process runs none; return ``ray``."""
        ray = _import_ray()
        if not ray.is_initialized():
            options: dict[str, Any] = {"log_to_driver": False, **self.init_options}
            if self.address is None:
                options.setdefault("include_dashboard", False)
            try:
                ray.init(address=self.address, **options)
            except ConnectionError as e:
                raise IngestError(f"cannot reach the Ray cluster at {self.address!r}: {e}") from e
        return ray

    def plan(self, ray: Any, embedder: Any = None) -> tuple[int, float]:
        """Return how many embedding actors to start and the GPUs each reserves.

        An embedder running an export (``backend`` ``onnx`` or ``openvino``) runs on
        CPUs only: its actors reserve no GPU unless asked, and asking is an error.

        Raises:
            ConfigError: ``gpus_per_actor`` > 0 for an embedder whose backend runs on CPUs only.
        """
        backend = getattr(embedder, "backend", None)
        cpu_only = isinstance(backend, str) and backend != "torch"
        if cpu_only and self.gpus_per_actor:
            raise ConfigError(
                f"the embedder runs the {backend} backend, on CPUs only; GPU actors need "
                "backend='torch' (--backend torch), or gpus_per_actor=0"
            )
        gpus_total = float(ray.cluster_resources().get("GPU", 0.0))
        if self.gpus_per_actor is not None:
            gpus = self.gpus_per_actor
        else:
            gpus = 1.0 if gpus_total >= 1 and not cpu_only else 0.0
        if self.embed_actors is not None:
            actors = self.embed_actors
        elif gpus > 0:
            actors = max(1, int(gpus_total // gpus))
        else:
            actors = 1
        return actors, gpus

    # -- one run ---------------------------------------------------------------------------
    def run(self, work: Work) -> Iterator[Prepared]:
        """Yield one event per job, in order, the Ready ones with their vectors.

        Sources whose size and modification time prove them unchanged are
        decided here, with a stat; only the others go to the cluster (none: Ray
        is not even started).
        """
        settled = [work.preparer.settled(job) for job in work.jobs]
        rest = [job for job, done in zip(work.jobs, settled, strict=True) if done is None]
        remote = self._run(self.connect(), work, rest) if rest else iter(())
        try:
            for event in settled:
                if event is None:
                    yield next(remote)
                else:
                    work.progress("documents", 1)
                    yield event
        finally:
            close = getattr(remote, "close", None)
            if close is not None:
                close()

    def _dataset(self, ray: Any, work: Work, jobs: list[Job]) -> Any:
        actors, gpus = self.plan(ray, work.embedder)
        device = self.device if self.device is not None else ("cuda" if gpus > 0 else None)
        dumps: Any = ray.cloudpickle.dumps  # documents hold read-only mappings plain pickle refuses
        rows = [{"seq": i, "job": dumps(job)} for i, job in enumerate(jobs)]
        ds = ray.data.from_items(rows, override_num_blocks=len(rows))
        ds = ds.flat_map(
            _prepare_rows,
            fn_kwargs={"preparer": work.preparer},
            num_cpus=self.parse_cpus,
        )
        return ds.map_batches(
            _EmbedActor,
            fn_constructor_kwargs={
                "embedder": work.embedder,
                "store": work.store,
                "embedder_key": work.embedder_key,
                "batch_size": self.batch_size or work.batch_size,
                "device": device,
            },
            compute=ray.data.ActorPoolStrategy(size=actors),
            batch_size=self.batch_size or work.batch_size,
            batch_format="pyarrow",
            num_cpus=self.cpus_per_actor,
            num_gpus=gpus,
        )

    def _run(self, ray: Any, work: Work, jobs: list[Job]) -> Iterator[Prepared]:
        import numpy as np

        context = ray.data.DataContext.get_current()
        saved = (context.execution_options.preserve_order, context.enable_progress_bars)
        context.execution_options.preserve_order = True  # events come back in the jobs' order
        context.enable_progress_bars = False
        assembler = _Assembler(jobs, work.embedder.dimension)
        try:
            batches = self._dataset(ray, work, jobs).iter_batches(batch_size=None, batch_format="pyarrow")
            for batch in batches:
                for event in assembler.feed(batch, np):
                    work.progress("documents", 1)
                    if isinstance(event, Ready):
                        work.progress("embedding", len(event.chunks))
                    yield event
        except (ConfigError, IngestError, MissingDependencyError):
            raise
        except Exception as e:
            raise IngestError(f"the Ray ingest failed: {' '.join(str(e).split())[:2000]}") from e
        finally:
            context.execution_options.preserve_order, context.enable_progress_bars = saved
        for event in assembler.finish():
            work.progress("documents", 1)
            yield event


class _Assembler:
    """Turn the rows coming back (in order) into one event per job."""

    def __init__(self, jobs: list[Job], dimension: int) -> None:
        self.jobs = jobs
        self.dimension = dimension
        self.next = 0  # the seq expected next
        self.current: Prepared | None = None
        self.need = 0
        self.chunks: list[Any] = []
        self.vectors: list[Any] = []
        self.fresh: list[bool] = []
        self.embed_seconds = 0.0

    def _gap(self, upto: int) -> Iterator[Prepared]:
        """Fail the jobs before ``upto`` whose rows never came (their worker failed for good)."""
        while self.next < upto:
            name = self.jobs[self.next].name
            yield Failed(name, "its Ray worker failed on every retry (a crash in the parser?); not indexed")
            self.next += 1

    def _close(self) -> Iterator[Prepared]:
        """Emit the source being assembled: whole, or failed if rows of it were lost."""
        event = self.current
        if event is None:
            return
        self.current = None
        if isinstance(event, Ready):
            if len(self.chunks) != self.need:
                yield Failed(event.source, "its embedding batch was lost on every retry; not indexed")
                return
            import numpy as np

            event.chunks = self.chunks
            event.vectors = (
                np.stack(self.vectors) if self.vectors else np.zeros((0, self.dimension), dtype=np.float32)
            )
            event.fresh = self.fresh
            if self.embed_seconds:
                event.times["embed"] = event.times.get("embed", 0.0) + self.embed_seconds
        yield event

    def feed(self, batch: pa.Table, np: Any) -> Iterator[Prepared]:
        """Take one batch of rows; yield the sources it completes."""
        seqs = batch.column("seq").to_pylist()
        parts = batch.column("part").to_pylist()
        blobs = batch.column("blob").to_pylist()
        vectors = batch.column("vector").to_pylist()
        fresh = batch.column("fresh").to_pylist()
        seconds = batch.column("seconds").to_pylist()
        for seq, part, blob, vector, new, spent in zip(
            seqs, parts, blobs, vectors, fresh, seconds, strict=True
        ):
            if part == 0:
                yield from self._close()
                yield from self._gap(seq)
                event = pickle.loads(blob)
                self.current, self.next = event, seq + 1
                self.need = event.record.chunks if isinstance(event, Ready) else 0
                self.chunks, self.vectors, self.fresh, self.embed_seconds = [], [], [], 0.0
                if self.need == 0:
                    yield from self._close()
                continue
            if self.current is None or seq != self.next - 1:  # rows of a source whose header was lost
                continue
            self.chunks.append(pickle.loads(blob))
            self.vectors.append(np.frombuffer(vector, dtype=np.float32))
            self.fresh.append(bool(new))
            self.embed_seconds += float(spent)
            if len(self.chunks) == self.need:
                yield from self._close()

    def finish(self) -> Iterator[Prepared]:
        """Yield what is left: a source cut short, and the jobs whose rows never came."""
        yield from self._close()
        yield from self._gap(len(self.jobs))


# -- what runs on the workers ------------------------------------------------------------


def _prepare_rows(row: dict[str, Any], *, preparer: Preparer) -> list[dict[str, Any]]:
    """Ray task: prepare one job; return its header row and one row per chunk."""
    job: Job = pickle.loads(row["job"])
    local = copy.copy(preparer)
    local.owners = dict(preparer.owners)  # claims of this task stay here; the driver checks them
    event = local.prepare(job)
    seq = int(row["seq"])
    chunks = event.chunks if isinstance(event, Ready) else []
    if isinstance(event, Ready):
        event.chunks = []
    from ray import cloudpickle

    dumps: Any = cloudpickle.dumps  # it pickles the read-only metadata mappings of chunks
    rows = [{"seq": seq, "part": 0, "key": "", "text": "", "blob": dumps(event)}]
    for i, chunk in enumerate(chunks, start=1):
        text = chunk.embed_text
        rows.append({"seq": seq, "part": i, "key": text_key(text), "text": text, "blob": dumps(chunk)})
    return rows


class _EmbedActor:
    """Ray actor: embed chunk rows through the collection's embedding cache (the model loads once)."""

    def __init__(
        self, *, embedder: Any, store: Any, embedder_key: str, batch_size: int, device: str | None
    ) -> None:
        if device is not None and hasattr(embedder, "device"):
            embedder = copy.copy(embedder)
            embedder.device = device
        self.embedder = embedder
        self.store = store
        self.embedder_key = embedder_key
        self.batch_size = batch_size

    def __call__(self, batch: pa.Table) -> pa.Table:
        import numpy as np
        import pyarrow as pa

        started = time.perf_counter()
        parts = batch.column("part").to_pylist()
        keys = batch.column("key").to_pylist()
        texts = batch.column("text").to_pylist()
        rows = [i for i, p in enumerate(parts) if p > 0]
        wanted = sorted({keys[i] for i in rows})
        dim = int(self.embedder.dimension)
        found = self.store.cached_vectors(self.embedder_key, dim, wanted) if wanted else {}
        missing: dict[str, str] = {}
        for i in rows:
            if keys[i] not in found and keys[i] not in missing:
                missing[keys[i]] = texts[i]
        computed: dict[str, Any] = {}
        if missing:
            order = sorted(missing, key=lambda k: -len(missing[k]))  # similar lengths pad less
            for start in range(0, len(order), self.batch_size):
                part = order[start : start + self.batch_size]
                out = np.asarray(self.embedder.embed_documents([missing[k] for k in part]), dtype=np.float32)
                computed.update(zip(part, out, strict=True))
        vectors: list[bytes] = []
        fresh: list[bool] = []
        for i, p in enumerate(parts):
            if p == 0:
                vectors.append(b"")
                fresh.append(False)
                continue
            key = keys[i]
            vec = computed.get(key)
            fresh.append(vec is not None)
            if vec is None:
                vec = found[key]
            vectors.append(np.asarray(vec, dtype=np.float32).tobytes())
        spent = (time.perf_counter() - started) / max(1, len(rows))
        seconds = [spent if p > 0 else 0.0 for p in parts]
        out_table = batch.drop_columns(["text", "key"])
        out_table = out_table.append_column("vector", pa.array(vectors, type=pa.binary()))
        out_table = out_table.append_column("fresh", pa.array(fresh, type=pa.bool_()))
        return out_table.append_column("seconds", pa.array(seconds, type=pa.float64()))
