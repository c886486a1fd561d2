"""The control-flow corpus (`tests/corpus/`) on Dask arrays of several chunkings.

Every corpus function (all of whose primitives run on Dask: those without a
chunked form run NumPy's kernel on one chunk, `autograph_runtime.dask_forms`)
gives, as one graph on `ag.device("dask", compute=True)`, what it gives
eagerly on NumPy arrays, and prints the same text, with its array arguments
passed as Dask arrays of one chunk, of one element a chunk, and of two
elements a chunk (uneven where a dimension is odd).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from corpus import all_cases
from test_corpus import assert_graph_matches

import autograph as ag

dask = pytest.importorskip("dask", reason="Dask is not installed (pip install '.[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array is not installed")

CASES = [(f"{module}.{fn.__name__}", fn, arg_tuples) for module, fn, arg_tuples, xfail
         in all_cases() if "graph" not in xfail]
CHUNKINGS = {"one chunk": -1, "many chunks": 1, "uneven chunks": 2}


def _on_dask(args, chunks):
    return tuple(da.from_array(a, chunks=chunks) if isinstance(a, np.ndarray) and a.ndim else a
                 for a in args)


@pytest.mark.parametrize("fn, arg_tuples", [pytest.param(fn, tuples, id=name)
                                            for name, fn, tuples in CASES])
def test_corpus_on_dask(fn, arg_tuples, capsys):
    g = ag.convert(fn)
    with dask.config.set(scheduler="synchronous"), np.errstate(all="ignore"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for k, args in enumerate(arg_tuples):
            capsys.readouterr()
            expected = fn(*args)
            eager_text = capsys.readouterr().out
            for name, chunks in CHUNKINGS.items():
                with ag.device("dask", compute=True):
                    got = g(*_on_dask(args, chunks))
                where = f"Dask, {name}, argument tuple {k}"
                assert_graph_matches(expected, got, where)
                assert capsys.readouterr().out == eager_text, f"{where}: printed other text"
    assert g.trace_count == 1, f"{fn.__name__} traced {g.trace_count} times for one signature"


def test_corpus_is_covered():
    assert len(CASES) >= 150
