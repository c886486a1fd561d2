"""Smoke test of the benchmarks: `bench/run_all.py --quick` runs and reports every benchmark.

Timing is never asserted (the machine may be slow or busy); only that the scripts
run, exit 0 and print a row for each benchmark plus the machine line.
"""
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

BENCHMARKS = [
    "lstm_step_10u_b1",      # (a)
    "lstm_step_512u_b64",    # (b)
    "call_overhead_add1",    # (c)
    "first_call_10u_b1",     # (d)
    "convert_50_lines",      # (e)
    "while_1000_scalar",     # (f)
    "lstm_for_100_steps",    # (g)
    "grad_lstm_100_steps",   # (h)
    "fresh_first_call_lstm_loop",  # (i)
    "fresh_first_call_50_lines",   # (j)
    "trace_unrolled_10000",        # (k)
]


def test_run_all_quick():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run_all.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "default"})
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    out = proc.stdout
    for name in BENCHMARKS:
        assert name in out, f"{name} missing from output:\n{out}"
    assert "machine:" in out and "NumPy" in out, out
    for word in ("numpy µs", "graph µs", "target"):
        assert word in out, out


def test_first_call_phases_wraps_every_phase():
    """The phase table times the library's own functions by name: each phase must
    still be found (a renamed function fails here, not silently as a 0.00 row)."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "first_call_phases.py"), "--reps", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    rows = {line[:44].strip(): line[44:].split() for line in proc.stdout.splitlines()[3:]}
    for phase in ("convert: parse (linecache, ast)", "convert: ast -> gast", "convert: ifs",
                  "convert: calls", "load: gast -> ast", "load: ast.unparse", "load: compile()",
                  "trace", "graph: pass cse", "codegen: write source", "codegen: compile()",
                  "first run", "total (timed with the wrappers)"):
        assert phase in rows and any(float(c) > 0 for c in rows[phase]), f"{phase}:\n{proc.stdout}"


NATIVE_WORKLOADS = ["collatz_27", "lstm_cell_10u", "lstm_loop_100_steps", "lstm_cell_512u_b64",
                    "x_plus_1", "kmeans_step_10k_8"]


def test_native_tier_quick():
    import pytest
    from autograph_runtime import native
    if not native.available():
        pytest.skip("Numba is not installed (the native tier's extra)")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "native_tier.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    for name in NATIVE_WORKLOADS + ["numpy tier", "native", "tf.function", "tf xla", "machine:"]:
        assert name in proc.stdout, f"{name} missing from output:\n{proc.stdout}"


SCALING_ROWS = ["cell (float32)", "10u batch 1", "10u batch 64", "10u cell, staged loop",
                "10 steps", "100 steps", "numpy tier", "native", "tf.function", "tf xla",
                "machine:"]


def test_scaling_quick():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scaling.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    for name in SCALING_ROWS:
        assert name in proc.stdout, f"{name} missing from output:\n{proc.stdout}"


def test_scaling_quick_without_tensorflow():
    """TensorFlow is a benchmark peer, never needed: hidden, its columns print "-"."""
    hide = ("import runpy, sys; sys.modules['tensorflow'] = None; "
            "sys.argv = [sys.argv[1], '--quick']; runpy.run_path(sys.argv[0], run_name='__main__')")
    proc = subprocess.run(
        [sys.executable, "-c", hide, str(ROOT / "bench" / "scaling.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    for name in SCALING_ROWS:
        assert name in proc.stdout, f"{name} missing from output:\n{proc.stdout}"
    assert "tf.function, tf xla not installed" in proc.stdout, proc.stdout
    assert "tensorflow" not in proc.stderr.lower(), proc.stderr


def test_onnx_latency_quick():
    import pytest
    pytest.importorskip("onnxruntime", reason="the ONNX benchmark needs onnxruntime (.[onnx])")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "onnx_latency.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    for name in ("collatz_27", "lstm_cell_10u", "lstm_loop_100_steps", "onnxruntime µs"):
        assert name in proc.stdout, f"{name} missing from output:\n{proc.stdout}"
