"""Graph optimizations: small graph-to-graph passes, and `optimize`, the pipeline of them.

Each pass takes a `Graph` and returns an equivalent one (the same graph where
it changes nothing), never changing the graph it is given; each is one file,
with its rules in tables keyed by primitive:

| pass | what it does |
| --- | --- |
| `simplify` | algebraic identities exact for every dtype (`x * 1`, `-(-x)`, `x.T.T`, ...) |
| `constant_folding` | equations of constants computed once by their own kernels |
| `cse` | repeated pure equations computed once |
| `merge_matmuls` | `x @ A + h @ B` (constants `A`, `B`) as one product (floats: opt-in) |
| `licm` | loop invariants that cannot raise or warn moved out of `while_loop` bodies |
| `short_sums` | a float `sum` over one short axis as `short_sum`: its slices added, bit for bit |
| `speculate_predicates` | (lazy backends only: Dask) a staged `and`/`or` of 0-d values that cannot raise as one `where`, one round trip |
| `prune_dead_code` | (`runtime.effects`) unused equations dropped, every effect kept |
| `scalar_lowering` | (not in `PIPELINE`: the NumPy tier's code only) a loop's int64 and float64 scalars as Python numbers |
| `trip_threading` | (not in `PIPELINE`: the NumPy tier's code only, after `scalar_lowering`) a loop's branch that proves the next trip's test and branch runs that trip too |

A graph function compiles `optimize(graph)` where `runtime.config.optimize`
is on (the default); the graph it keeps, prints, saves and differentiates is
the traced one. Each pass keeps the oracle's answer: the same dtypes,
shapes, values (bit for bit), errors and warnings as the unoptimized graph.
"""
from __future__ import annotations

import numpy as np

from .. import config
from ..effects import prune_dead_code
from ..verify import verify
from .constant_folding import constant_folding
from .cse import cse
from .licm import licm
from .merge_matmuls import merge_matmuls
from .short_sums import short_sums
from .simplify import simplify
from .speculate import speculate_predicates

PIPELINE = (
    simplify,          # first: `x * 1` gone exposes common subexpressions and constants
    constant_folding,  # before cse: folded values are literals, which cse compares by value
    cse,
    merge_matmuls,     # after cse: a product it merged away is read once
    licm,              # after cse: one copy of an invariant to hoist
    short_sums,        # after licm, whose tables know `sum`
    speculate_predicates,  # lazy backends only; after licm, which hoists from the tests
    prune_dead_code,   # last: the passes above leave the equations they replaced unused
)


def optimize(graph, backend=None):
    """`graph` through every pass of `PIPELINE`.

    Constant folding runs NumPy's kernels, so it is skipped for another
    `backend` (CuPy), whose kernels the graph would run instead; predicates
    are speculated on a lazy backend only (Dask: a staged test is a round
    trip there, and a Python `if` costs nothing on the others). With
    `config.verify_graphs` on, the verifier checks the graph after each pass.
    """
    skipped = set()
    if not (backend is None or backend.xp is np):
        skipped.add(constant_folding)
    if getattr(backend, "truth", None) is None:   # (None: the NumPy tier)
        skipped.add(speculate_predicates)
    for transform in PIPELINE:
        if transform not in skipped:
            graph = transform(graph)
            if config.verify_graphs:
                verify(graph)
    return graph
