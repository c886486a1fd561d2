"""A sample of the generated-program campaign (`tests/program_gen.py`) exported to ONNX.

Each drawn program is traced for its first argument set, exported, and run in
onnxruntime on every set: eager's values (integers bit for bit, floats to 1e-13).
A set on which eager raises is left out (an exported `assert` is dropped, and a model
computes on); a program the graph refuses (a `TracingError` such as `PathTypeError`)
or the exporter refuses (`ExportError`: a primitive without a lowering, a Python int
beyond 64 bits) counts as refused, never as wrong.
"""
from __future__ import annotations

import os
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx_check import assert_matches, close, run_model
from program_gen import arguments, programs
from test_generated_programs import FEATURES, call_args, load, time_limit

import autograph as ag
from autograph_runtime.executor import Executor

SAMPLE = settings(parent=settings.get_profile(settings._current_profile),
                  max_examples=int(os.environ.get("AG_ONNX_EXAMPLES", "25")), deadline=None)


@SAMPLE
@given(program=programs(FEATURES),
       input_sets=st.lists(arguments(), min_size=2, max_size=3))
def test_generated_programs_in_onnxruntime(program, input_sets, tmp_path_factory):
    directory = tmp_path_factory.mktemp("onnx_programs", numbered=True)
    fn = load(program.source, directory)
    calls = [call_args(inputs, program.p) for inputs in input_sets]
    with np.errstate(all="ignore"), warnings.catch_warnings(), time_limit(120):
        warnings.simplefilter("ignore")
        try:
            concrete = ag.convert(fn).get_concrete_function(*calls[0])
            concrete.export_onnx(directory / "model.onnx")
        except (ag.TracingError, ag.ExportError):   # the graph's or the exporter's refusal
            return
        for args in calls:
            leaves = [np.copy(a) for a in args if isinstance(a, (np.ndarray, np.generic))]
            outputs = run_model(directory / "model.onnx", leaves)   # before eager writes x
            try:
                eager = fn(*args)
            except Exception:  # noqa: BLE001 - the model has no error to raise
                continue
            if program.returns_list:   # its list is laid out in graph outputs its own way:
                _matches_graph(concrete, leaves, outputs)   # the graph's (eager's: the campaign)
                continue
            # onnxruntime's tanh may differ from NumPy's by an ulp, and the programs
            # subtract such values (`s - y[1]`): an ulp of the operands, not of the result
            assert_matches(eager, outputs, concrete, f"\n{program.source}\n{args!r}",
                           ulps=(1e-13, 1e-13))


def _matches_graph(concrete, leaves, outputs):
    wants = Executor(concrete.graph).run(*leaves)
    assert len(wants) == len(outputs)
    for i, (want, got) in enumerate(zip(wants, outputs)):
        want = np.asarray(want).astype(got.dtype)
        assert want.shape == got.shape and close(want, got, (1e-13, 1e-13)), \
            f"output {i}: {got!r}, the graph's {want!r}"
