"""Exported models in onnxruntime beside NumPy, the NumPy tier and the native tier.

The README's Collatz, the 10-unit LSTM cell and its staged 100-step loop
(`native_tier.workloads`), each exported with `ag.export_onnx` and run by an
`onnxruntime.InferenceSession` on one thread (`session.run` with a prepared
feed, as a serving loop calls it); every contender's result is checked against
NumPy's first. Interleaved rounds (`common.compare`); ratios are medians of
per-round ratios to hand-written NumPy, lower is faster. Run: `python
bench/onnx_latency.py [--quick]`.
"""
from __future__ import annotations

import os
import sys
import tempfile

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")   # before NumPy loads its BLAS

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import autograph as ag  # noqa: E402
from autograph_runtime import native  # noqa: E402
from common import compare, parse_args  # noqa: E402
from native_tier import check, columns, workloads  # noqa: E402

WORKLOADS = ("collatz_27", "lstm_cell_10u", "lstm_loop_100_steps")


def onnx_session(path):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def run(settings) -> str:
    header = ["workload", "numpy µs", "numpy tier", "native", "onnxruntime", "onnxruntime µs"]
    rows, folder = [], tempfile.mkdtemp()
    for name, eager, staged, eager_args, args, _, _ in workloads():
        if name not in WORKLOADS:
            continue
        path = os.path.join(folder, f"{name}.onnx")
        ag.export_onnx(ag.convert(staged), path, *args)
        session = onnx_session(path)
        feed = {i.name: np.asarray(a) for i, a in zip(session.get_inputs(), args)}
        contenders = {"numpy": (eager, eager_args),
                      "numpy tier": (ag.convert(staged, tier="numpy"), args),
                      "onnxruntime": (session.run, (None, feed))}
        if native.available():
            contenders["native"] = (ag.convert(staged, tier="native"), args)
        want = eager(*eager_args)
        for label, (fn, fn_args) in contenders.items():
            got = fn(*fn_args)
            check(f"{name}: {label}", tuple(got) if label == "onnxruntime" and
                  isinstance(want, tuple) else got[0] if label == "onnxruntime" else got, want)
        result = compare(contenders, rounds=settings.rounds(30), round_ms=settings.round_ms)
        cells = [name, f"{result['numpy'].median_us:.2f}"]
        for label in header[2:5]:
            cells.append(f"{result.median_ratio(label, 'numpy'):.3f}x"
                         if label in contenders else "-")
        cells.append(f"{result['onnxruntime'].median_us:.2f}")
        rows.append(cells)
    return columns(header, rows)


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    import onnxruntime
    print("ONNX export: ratios to hand-written NumPy (median of interleaved rounds; lower "
          "is faster)\n")
    print(run(settings))
    print(f"\nNumPy {np.__version__}, onnxruntime {onnxruntime.__version__} (one thread), "
          f"{os.cpu_count()} cores")


if __name__ == "__main__":
    main()
