"""Running exported ONNX models in onnxruntime against the eager oracle (test helper).

`export_and_run(f, args, tmp_path)` exports `f`'s signature for `args`, runs the
model on the flat array arguments and returns `(model outputs, concrete function)`;
`assert_matches(eager, outputs, concrete)` compares them leaf by leaf: integers and
booleans bit for bit, floats to a few ulp (NaNs equal).
"""
from __future__ import annotations

import numpy as np
import pytest

from autograph_runtime.tree import flatten

ort = pytest.importorskip("onnxruntime", reason="the ONNX tests need onnxruntime "
                                                "(pip install -e '.[onnx]')")
pytest.importorskip("onnx", reason="the ONNX tests need onnx (pip install -e '.[onnx]')")

ULPS = 4


def array_leaves(args) -> list:
    leaves = flatten(args)[0]
    return [x for x in leaves if isinstance(x, (np.ndarray, np.generic))]


def run_model(path, arrays) -> list:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, [np.asarray(a) for a in arrays])))


def export_and_run(f, args, path, runs=()):
    """Exports `f` for `args` to `path`; the model's outputs on `args` and on each of `runs`."""
    concrete = f.get_concrete_function(*args)
    concrete.export_onnx(path)
    return [run_model(path, array_leaves(a)) for a in (args, *runs)], concrete


def close(want: np.ndarray, got: np.ndarray, ulps: int = ULPS) -> bool:
    """Equal where integers or booleans; within `ulps` units in the last place for floats
    (or, where `ulps` is a pair `(rtol, atol)`, within those tolerances)."""
    if want.dtype.kind in "biu":
        return np.array_equal(want, got)
    if isinstance(ulps, tuple):
        return bool(np.allclose(got, want, rtol=ulps[0], atol=ulps[1], equal_nan=True))
    both_nan = np.isnan(want) & np.isnan(got)
    same = (want == got) | both_nan
    spacing = np.spacing(np.maximum(np.abs(want), np.abs(got)).astype(want.dtype))
    return bool(np.all(same | (np.abs(want - got) <= ulps * spacing)))


def assert_matches(eager, outputs, concrete, where="", ulps: int = ULPS):
    """The model's outputs (graph outputs only) against eager's leaves."""
    leaves = flatten(eager)[0]
    graph_leaves = [e for e, is_output in zip(leaves, concrete._is_output) if is_output]
    assert len(outputs) >= len(graph_leaves), f"{where}: {len(outputs)} outputs"
    for i, (e, got) in enumerate(zip(graph_leaves, outputs)):
        want = np.asarray(e)
        assert got.shape == want.shape, f"{where} output {i}: shape {got.shape}, eager {want.shape}"
        if isinstance(e, (np.ndarray, np.generic)):
            assert got.dtype == want.dtype, f"{where} output {i}: {got.dtype}, eager {want.dtype}"
        else:   # a Python number: the graph keeps it as a 64-bit value of its kind
            assert got.dtype.kind == want.dtype.kind or (
                isinstance(e, bool) and got.dtype == bool), f"{where} output {i}: {got.dtype}"
            want = want.astype(got.dtype)
        assert close(want, got, ulps), f"{where} output {i}: {got!r}, eager {want!r}"


def check(fn, *args, path, runs=(), ulps: int = ULPS, convert=None):
    """`fn` converted, exported for `args`, run on `args` and `runs` in onnxruntime: eager's
    answers (NumPy's warnings off). Returns the concrete function."""
    import warnings

    import autograph as ag
    graph_function = (convert or ag.convert)(fn)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        outputs, concrete = export_and_run(graph_function, args, path, runs)
        for k, (a, got) in enumerate(zip([args, *runs], outputs)):
            assert_matches(fn(*a), got, concrete, f"{fn.__name__}, run {k}", ulps)
    return concrete
