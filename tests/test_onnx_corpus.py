"""Every corpus function exported to ONNX and run in onnxruntime against eager NumPy.

For each case (`tests/corpus`), its signature is traced and exported; the model runs on
each of the case's argument tuples and on fresh random variants of them (every float
scaled by a random factor in [0.5, 1.5], which keeps signs, zeros and the paths loops
over integers take), and must give eager's values: integers and booleans bit for bit,
floats to a few ulp. A function the exporter cannot express must be refused with an
`ExportError` naming the primitive and the line, never exported with another answer.
`test_corpus_counts` states how many export and which are refused.
"""
from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest
from corpus import all_cases
from onnx_check import assert_matches, export_and_run

import autograph as ag
from autograph_runtime.tree import flatten

CASES = list(all_cases())
# corpus functions refused, and the primitive that refuses them
REFUSED: dict = {}
PRINTS = "print"   # every corpus function staging a print is refused for it


def _variant(args, rng):
    leaves, tree = flatten(args)

    def scaled(x):
        if isinstance(x, (np.ndarray, np.floating)) and np.result_type(x).kind == "f":
            factor = rng.uniform(0.5, 1.5, np.shape(x)).astype(np.result_type(x))
            return (np.asarray(x) * factor).astype(np.result_type(x))[()] \
                if isinstance(x, np.generic) else np.asarray(x) * factor
        return x
    return tree.unflatten([scaled(x) for x in leaves])


def _quiet(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def _stages_print(fn, args) -> bool:
    graph = _quiet(ag.convert(fn).get_concrete_function, *args).graph
    return any(e.primitive.name == "print" for e in graph.all_eqns())


@pytest.mark.parametrize("fn, arg_tuples", [pytest.param(fn, tuples, id=f"{m}.{fn.__name__}")
                                            for m, fn, tuples, _ in CASES])
def test_corpus_function_in_onnxruntime(fn, arg_tuples, tmp_path, request):
    case = request.node.callspec.id
    rng = np.random.default_rng(zlib.crc32(case.encode()))
    runs = list(arg_tuples[1:]) + [_variant(a, rng) for a in arg_tuples for _ in range(2)]
    graph_function = ag.convert(fn)
    try:
        outputs, concrete = _quiet(export_and_run, graph_function, arg_tuples[0],
                                   tmp_path / "model.onnx", runs)
    except ag.ExportError as error:
        primitive = REFUSED.get(case, PRINTS)
        assert f"cannot export {primitive} at " in str(error), str(error)
        assert f"{fn.__code__.co_filename}:" in str(error)
        if primitive == PRINTS:
            assert _stages_print(fn, arg_tuples[0])
        return
    assert case not in REFUSED, f"{case} exported, but is listed as refused"
    for k, (args, got) in enumerate(zip([arg_tuples[0], *runs], outputs)):
        assert_matches(_quiet(fn, *args), got, concrete, f"{case}, run {k}")


def test_corpus_counts(tmp_path):
    """The count of corpus functions that export, and of those refused (printed with -s)."""
    exported, refused = [], []
    for module, fn, tuples, _ in CASES:
        try:
            _quiet(ag.convert(fn).get_concrete_function(*tuples[0]).export_onnx,
                   tmp_path / "m.onnx")
            exported.append(f"{module}.{fn.__name__}")
        except ag.ExportError as error:
            refused.append(f"{module}.{fn.__name__}: {str(error).split(' at ')[0]}")
    print(f"\n{len(exported)} corpus functions export to ONNX, {len(refused)} are refused:")
    print("\n".join(f"  {r}" for r in refused))
    assert len(exported) >= 250 and len(exported) + len(refused) == len(CASES)
