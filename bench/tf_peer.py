"""The `tf.function` twins of `native_tier.py`'s workloads: a benchmark peer, never a dependency.

Each workload is written as a TensorFlow user writes it: Collatz as a
`tf.while_loop` on an int64 scalar, the LSTM cell with `tf.matmul`/`tf.split`/
`tf.sigmoid`, its loop as `for t in tf.range(...)` (TensorFlow's own AutoGraph
turns it into a while loop, one graph for any length), `x + 1`, and the k-means
step with `tf.argmin`/`tf.one_hot`. `versions(jit_compile)` wraps each in
`tf.function(jit_compile=...)` and in a caller that `.numpy()`s the outputs, so the
work is done inside the timed call (as `jax.block_until_ready`); `inputs(args)`
turns NumPy arguments into `tf.constant`s, made once, outside the timed call.

TensorFlow is imported here only, lazily (it takes seconds), with its C++ log
silenced (`TF_CPP_MIN_LOG_LEVEL=3`, and standard error closed while it loads,
since it logs oneDNN's banner before reading that setting) and its Python logger
at ERROR. Where `OPENBLAS_NUM_THREADS` (or OMP's, MKL's) limits NumPy's BLAS,
TensorFlow's intra-op and inter-op pools get the same number of threads
(`scaling.py` sets 1); otherwise TensorFlow keeps its default, one per core, as
OpenBLAS does. Without TensorFlow, `versions` returns `{}` and the tables print "-".
"""
from __future__ import annotations

import functools
import importlib.util
import os
import sys

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def available() -> bool:
    return importlib.util.find_spec("tensorflow") is not None


@functools.cache
def tensorflow():
    """The `tensorflow` module, imported quietly once, its threads set as NumPy's BLAS."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    sys.stderr.flush()
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)      # oneDNN's banner is printed before the log level is read
    try:
        import tensorflow as tf
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
    tf.get_logger().setLevel("ERROR")   # e.g. the retracing warning: one shape per table row
    threads = next((os.environ[v] for v in THREAD_VARIABLES if os.environ.get(v)), None)
    if threads is not None and threads.isdigit():
        tf.config.threading.set_intra_op_parallelism_threads(int(threads))
        tf.config.threading.set_inter_op_parallelism_threads(int(threads))
    return tf


def inputs(args):
    """NumPy arguments as `tf.constant`s (same dtypes and shapes), made outside the timed call."""
    tf = tensorflow()
    return tuple(tf.constant(a) for a in args)


def _done(fn):
    """`fn` whose outputs come back as NumPy values, so the call waits for the work."""
    def call(*args):
        out = fn(*args)
        return tuple(o.numpy() for o in out) if isinstance(out, (tuple, list)) else out.numpy()
    call.__name__ = getattr(fn, "__name__", "tf_function")
    return call


def _twins(tf):
    def collatz(n):
        def body(n, steps):
            return tf.where(n % 2 == 0, n // 2, 3 * n + 1), steps + 1
        return tf.while_loop(lambda n, steps: n != 1, body, (n, tf.constant(0, tf.int64)))[1]

    def cell(x, h, c, w, u, b):
        z = tf.matmul(x, w) + tf.matmul(h, u) + b
        i, f, g, o = tf.split(z, 4, axis=1)
        c_new = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
        return tf.sigmoid(o) * tf.tanh(c_new), c_new

    def sequence(xs, h, c, w, u, b):
        for t in tf.range(tf.shape(xs)[0]):
            h, c = cell(xs[t], h, c, w, u, b)
        return h, c

    def add_one(x):
        return x + 1

    def kmeans(points, centroids):
        d = tf.reduce_sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=2)
        onehot = tf.one_hot(tf.argmin(d, axis=1), tf.shape(centroids)[0], dtype=points.dtype)
        counts = tf.reduce_sum(onehot, axis=0)
        return tf.matmul(onehot, points, transpose_a=True) / tf.maximum(counts, 1)[:, None]

    return {"collatz": collatz, "cell": cell, "loop": sequence, "add": add_one,
            "kmeans": kmeans}


def versions(jit_compile: bool = False) -> dict:
    """{workload key: callable taking `inputs(args)`, returning NumPy}; {} without TensorFlow."""
    if not available():
        return {}
    tf = tensorflow()
    return {key: _done(tf.function(fn, jit_compile=jit_compile))
            for key, fn in _twins(tf).items()}
