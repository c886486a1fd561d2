"""The native tier against hand-written NumPy, the NumPy tier, and the peers.

For each workload, one process, interleaved rounds (`common.compare`): the
hand-written NumPy function (the baseline: ratio 1), the same function under
`ag.convert(tier="numpy")` and `ag.convert(tier="native")`, and, where they are
installed, the same Python compiled by hand with `numba.njit` and `jax.jit` of
its jax.numpy twin. Ratios are medians of per-round ratios to NumPy; lower is
faster. Targets are issue #14's. Run: `python bench/native_tier.py [--quick]`.
"""
from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import autograph as ag  # noqa: E402
from common import compare, cpu_model, parse_args  # noqa: E402
from control_flow import lstm_sequence, lstm_sequence_staged  # noqa: E402
from lstm import lstm_cell, make_inputs  # noqa: E402


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def add_one(x):
    return x + 1


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
    return {"collatz": jit(collatz), "cell": cell, "loop": jit(sequence), "add": jit(add_one)}


def _jax_versions():
    if importlib.util.find_spec("jax") is None:
        return {}
    import jax
    import jax.numpy as jnp

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


def workloads():
    x, h, c, w, u, b = make_inputs(10, 1)
    big = make_inputs(512, 64)
    xs = np.repeat(x[None], 100, axis=0)
    steps = np.int64(100)
    return [
        ("collatz_27", collatz, collatz, (np.int64(27),), (np.int64(27),), "collatz", "<= 0.1x"),
        ("lstm_cell_10u", lstm_cell, lstm_cell, (x, h, c, w, u, b), (x, h, c, w, u, b),
         "cell", "<= 0.3x"),
        ("lstm_loop_100_steps", lstm_sequence, lstm_sequence_staged, (xs, h, c, w, u, b),
         (xs, h, c, w, u, b, steps), "loop", "<= 0.08x"),
        ("lstm_cell_512u_b64", lstm_cell, lstm_cell, big, big, "cell", "<= 1.0x"),
        ("x_plus_1", add_one, add_one, (np.ones(4, np.float32),), (np.ones(4, np.float32),),
         "add", "<= 2.5x"),
    ]


def run(settings):
    peers = {"numba by hand": _numba_versions(), "jax.jit": _jax_versions()}
    header = ["workload", "numpy µs", "numpy tier", "native", *[p for p in peers if peers[p]],
              "target (native)"]
    rows = []
    for name, eager, staged, eager_args, args, peer_key, target in workloads():
        numpy_tier = ag.convert(staged, tier="numpy")
        native = ag.convert(staged, tier="native")
        contenders = {"numpy": (eager, eager_args), "numpy tier": (numpy_tier, args),
                      "native": (native, args)}
        for peer, versions in peers.items():
            if peer_key in versions:
                contenders[peer] = (versions[peer_key], eager_args)
        result = compare(contenders, rounds=settings.rounds(30), round_ms=settings.round_ms)
        tier = native.get_concrete_function(*args)
        cells = [name, f"{result['numpy'].median_us:.2f}"]
        for contender in list(contenders)[1:]:
            cells.append(f"{result.median_ratio(contender, 'numpy'):.3f}x")
        cells.append(target + ("" if tier.tier == "native" else f" ({tier.tier_reason})"))
        rows.append(cells)
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(f"{c:<{w}}" for c, w in zip(header, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(f"{c:<{w}}" for c, w in zip(r, widths)) for r in rows]
    return "\n".join(lines)


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    print("native tier: ratios to hand-written NumPy (median of interleaved rounds; lower "
          "is faster)\n")
    print(run(settings))
    print(f"\nmachine: {cpu_model()}, {os.cpu_count()} cores, NumPy {np.__version__}")


if __name__ == "__main__":
    main()
