"""The native tier against hand-written NumPy, the NumPy tier, and the peers.

For each workload, one process, interleaved rounds (`common.compare`): the
hand-written NumPy function (the baseline: ratio 1), the same function under
`ag.convert(tier="numpy")` and `ag.convert(tier="native")`, and, where they are
installed, the peers (`PEERS`): the same Python compiled by hand with `numba.njit`,
`jax.jit` of its jax.numpy twin, and `tf.function` of its TensorFlow twin
(`tf_peer.py`), without and with XLA (`jit_compile=True`); "-" where a library is
missing. Every contender's result is checked against NumPy's first. Ratios are
medians of per-round ratios to NumPy; lower is faster. Targets are issue #14's.
BLAS runs one thread (`OPENBLAS_NUM_THREADS=1` and the like, unless set), as in
`scaling.py`: on this shared 2-core machine a second BLAS thread made hand-written
NumPy's 512-unit cell anywhere from 4 to 45 ms. Run: `python bench/native_tier.py
[--quick]`.
"""
from __future__ import annotations

import importlib.util
import os
import sys

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")   # before NumPy loads its BLAS

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "examples"))

import autograph as ag  # noqa: E402
from common import compare, cpu_model, parse_args  # noqa: E402
from control_flow import lstm_sequence, lstm_sequence_staged  # noqa: E402
from demo import collatz  # noqa: E402 - the README's Collatz (examples/demo.py)
from lstm import lstm_cell, make_inputs  # noqa: E402
import tf_peer  # noqa: E402 - imports TensorFlow itself only when asked for its versions

PEERS = ("numba by hand", "jax.jit", "tf.function", "tf xla")


def add_one(x):
    return x + 1


def kmeans_step(points, centroids):
    """One k-means step as NumPy code writes it: distances, nearest, new means."""
    d = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    nearest = np.argmin(d, axis=1)
    onehot = (nearest[:, None] == np.arange(centroids.shape[0])).astype(points.dtype)
    counts = onehot.sum(axis=0)
    return (onehot.T @ points) / np.maximum(counts, 1)[:, None]


def _numba_versions():
    if importlib.util.find_spec("numba") is None:
        return {}
    import numba
    jit = numba.njit(cache=False)
    cell = jit(lstm_cell)

    def sequence(xs, h, c, w, u, b):
        for t in range(xs.shape[0]):
            h, c = cell(xs[t], h, c, w, u, b)
        return h, c
    @numba.njit
    def kmeans(points, centroids):   # the loops a Numba user writes by hand
        k, n = centroids.shape[0], points.shape[0]
        sums = np.zeros_like(centroids)
        counts = np.zeros(k)
        for p in range(n):
            best, best_d = 0, np.inf
            for j in range(k):
                d = 0.0
                for q in range(points.shape[1]):
                    d += (points[p, q] - centroids[j, q]) ** 2
                if d < best_d:
                    best, best_d = j, d
            sums[best] += points[p]
            counts[best] += 1
        return sums / np.maximum(counts, 1)[:, None]
    return {"collatz": jit(collatz), "cell": cell, "loop": jit(sequence), "add": jit(add_one),
            "kmeans": kmeans}


def _jax_versions():
    if importlib.util.find_spec("jax") is None:
        return {}
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)   # Collatz on int64, as NumPy's

    def cell(x, h, c, w, u, b):
        z = x @ w + h @ u + b
        i, f, g, o = jnp.split(z, 4, axis=1)
        i, f, o = jax.nn.sigmoid(i), jax.nn.sigmoid(f), jax.nn.sigmoid(o)
        c_new = f * c + i * jnp.tanh(g)
        return o * jnp.tanh(c_new), c_new

    def sequence(xs, h, c, w, u, b):
        return jax.lax.fori_loop(0, xs.shape[0], lambda t, hc: cell(xs[t], *hc, w, u, b),
                                 (h, c))

    def collatz_jax(n):
        def body(state):
            n, steps = state
            return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), steps + 1
        return jax.lax.while_loop(lambda s: s[0] != 1, body, (n, 0))[1]
    ready = lambda f: lambda *a: jax.block_until_ready(f(*a))  # noqa: E731
    return {"collatz": ready(jax.jit(collatz_jax)), "cell": ready(jax.jit(cell)),
            "loop": ready(jax.jit(sequence)), "add": ready(jax.jit(add_one))}


def peers() -> dict:
    """{column of `PEERS`: (versions, inputs)}: the peer's {workload key: function}, {} where
    its library is missing, and what turns NumPy arguments into its own (made once,
    outside the timed call: `tf.constant`s for TensorFlow)."""
    same = lambda args: args  # noqa: E731
    return {"numba by hand": (_numba_versions(), same), "jax.jit": (_jax_versions(), same),
            "tf.function": (tf_peer.versions(jit_compile=False), tf_peer.inputs),
            "tf xla": (tf_peer.versions(jit_compile=True), tf_peer.inputs)}


def peer_contenders(peers: dict, key: str, eager_args) -> dict:
    """{column: (function, args)} of the peers that have a version of workload `key`."""
    return {peer: (versions[key], to_inputs(eager_args))
            for peer, (versions, to_inputs) in peers.items() if key in versions}


def missing_note(peers: dict) -> list[str]:
    missing = [p for p, (versions, _) in peers.items() if not versions]
    return [f"'-': {', '.join(missing)} not installed"] if missing else []


def check(label: str, got, want) -> None:
    """`got` is `want` (a value or a tuple of them): same shapes, values within float32
    tolerance."""
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    assert len(got) == len(want), f"{label}: {len(got)} outputs, NumPy's {len(want)}"
    for g, w in zip(got, want):
        assert np.shape(g) == np.shape(w), f"{label}: shape {np.shape(g)}, NumPy's {np.shape(w)}"
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-4, atol=1e-5, err_msg=label)


def workloads():
    x, h, c, w, u, b = make_inputs(10, 1)
    big = make_inputs(512, 64)
    xs = np.repeat(x[None], 100, axis=0)
    steps = np.int64(100)
    rng = np.random.default_rng(0)
    kmeans = (rng.normal(size=(10_000, 2)), rng.normal(size=(8, 2)))
    return [
        ("collatz_27", collatz, collatz, (np.int64(27),), (np.int64(27),), "collatz", "<= 0.1x"),
        ("lstm_cell_10u", lstm_cell, lstm_cell, (x, h, c, w, u, b), (x, h, c, w, u, b),
         "cell", "<= 0.3x"),
        ("lstm_loop_100_steps", lstm_sequence, lstm_sequence_staged, (xs, h, c, w, u, b),
         (xs, h, c, w, u, b, steps), "loop", "<= 0.08x"),
        ("lstm_cell_512u_b64", lstm_cell, lstm_cell, big, big, "cell", "<= 1.0x"),
        ("x_plus_1", add_one, add_one, (np.ones(4, np.float32),), (np.ones(4, np.float32),),
         "add", "<= 2.5x"),
        ("kmeans_step_10k_8", kmeans_step, kmeans_step, kmeans, kmeans, "kmeans", "<= 0.2x"),
    ]


def run(settings):
    peers_ = peers()
    header = ["workload", "numpy µs", "numpy tier", "native", *PEERS, "target (native)"]
    rows = []
    for name, eager, staged, eager_args, args, peer_key, target in workloads():
        numpy_tier = ag.convert(staged, tier="numpy")
        native = ag.convert(staged, tier="native")
        contenders = {"numpy": (eager, eager_args), "numpy tier": (numpy_tier, args),
                      "native": (native, args), **peer_contenders(peers_, peer_key, eager_args)}
        want = eager(*eager_args)
        for label, (fn, fn_args) in contenders.items():   # each one checked, and warm
            check(f"{name}: {label}", fn(*fn_args), want)
        result = compare(contenders, rounds=settings.rounds(30), round_ms=settings.round_ms)
        tier = native.get_concrete_function(*args)
        cells = [name, f"{result['numpy'].median_us:.2f}"]
        for contender in header[2:-1]:
            cells.append(f"{result.median_ratio(contender, 'numpy'):.3f}x"
                         if contender in contenders else "-")
        cells.append(target + ("" if tier.tier == "native" else f" ({tier.tier_reason})"))
        rows.append(cells)
    return "\n\n".join([columns(header, rows), *missing_note(peers_)])


def columns(header, rows) -> str:
    """`header` and `rows` (lists of strings) as left-aligned columns under a rule."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(f"{c:<{w}}" for c, w in zip(header, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(f"{c:<{w}}" for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


def background_compile_cost(seconds: float = 2.0) -> str:
    """How much a compile slows the calling thread: calls per second of the 10-unit cell
    (NumPy tier) alone, then while another graph compiles on a background thread of
    this process, then while it compiles in a worker process (`runtime.native.worker`)."""
    import tempfile
    import threading
    import time

    import autograph_runtime as runtime
    args = make_inputs(10, 1)
    cell = ag.convert(lstm_cell, tier="numpy")
    cell(*args)

    def rate_until(done):
        calls, start = 0, time.perf_counter()
        while not done():
            cell(*args)
            calls += 1
        return calls / (time.perf_counter() - start)
    alone_end = time.perf_counter() + seconds
    rates = {"alone": rate_until(lambda: time.perf_counter() > alone_end)}
    for label, in_worker, units in (("compile on a thread", False, 11),
                                    ("compile in a worker", True, 13)):
        # a graph this process never compiled (its own sizes), and a cold disk cache
        runtime.config.native_cache_dir = tempfile.mkdtemp()
        x, h, c, w, u, b = make_inputs(units, 1)
        xs = np.repeat(x[None], 100, axis=0)
        graph = ag.convert(lstm_sequence_staged, tier="numpy")
        concrete = graph.get_concrete_function(xs, h, c, w, u, b, np.int64(100))
        finished = []
        thread = threading.Thread(target=lambda: finished.append(
            concrete._compile_native(in_worker=in_worker)))
        start = time.perf_counter()
        thread.start()
        rates[label] = rate_until(lambda: finished)
        rates[label + " (s)"] = time.perf_counter() - start
        thread.join()
    base = rates["alone"]
    return (f"calling thread, 10-unit cell calls/s: alone {base:.0f}; during a compile on a "
            f"thread {rates['compile on a thread']:.0f} "
            f"({rates['compile on a thread'] / base:.2f}x, {rates['compile on a thread (s)']:.1f} s); "
            f"during a compile in a worker process {rates['compile in a worker']:.0f} "
            f"({rates['compile in a worker'] / base:.2f}x, {rates['compile in a worker (s)']:.1f} s)")


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    print("native tier: ratios to hand-written NumPy (median of interleaved rounds; lower "
          "is faster)\n")
    print(run(settings))
    if not settings.quick:
        print("\n" + background_compile_cost())
    print(f"\nmachine: {cpu_model()}, {os.cpu_count()} cores, NumPy {np.__version__}")


if __name__ == "__main__":
    main()
