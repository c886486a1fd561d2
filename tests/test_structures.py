"""Nested inputs and outputs: lists, tuples, dicts, namedtuples, Python values."""
import collections

import numpy as np

import autograph as ag

Pair = collections.namedtuple("Pair", "left right")
Model = collections.namedtuple("Model", "weights config")


def assert_same_tree(got, want):
    """Same containers (types, keys, lengths); equal arrays with equal dtypes; `is` for the rest.

    Where eager NumPy gives a NumPy scalar, the graph gives a 0-d array (API: traced
    values come back as NumPy arrays)."""
    if isinstance(want, (np.ndarray, np.generic)):
        assert isinstance(got, (np.ndarray, np.generic)), type(got)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6)
        return
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, dict):
        assert set(got) == set(want)
        for key in want:
            assert_same_tree(got[key], want[key])
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same_tree(g, w)
    else:
        assert got is want or got == want


def check(f, *args, **kwargs):
    got = f(*args, **kwargs)
    assert_same_tree(got, f.python_function(*args, **kwargs))
    return got


def test_list_and_tuple_inputs_and_outputs():
    def f(xs, pair):
        a, b = pair
        return [x * a for x in xs], (a + b, a - b)
    g = ag.convert(f)
    xs = [np.arange(3.0), np.ones(3)]
    out = check(g, xs, (np.float64(2), np.float64(5)))
    assert isinstance(out[0], list) and isinstance(out[1], tuple)
    check(g, [np.zeros(3), np.full(3, 4.0)], (np.float64(-1), np.float64(1)))
    assert g.trace_count == 1


def test_dict_inputs_and_outputs():
    def f(params, x):
        return {"logits": x @ params["w"] + params["b"], "norm": np.abs(params["w"]).sum()}
    g = ag.convert(f)
    rng = np.random.default_rng(3)
    params = {"w": rng.standard_normal((4, 2)), "b": rng.standard_normal(2)}
    check(g, params, rng.standard_normal((5, 4)))
    check(g, {"b": params["b"] * 2, "w": params["w"]}, rng.standard_normal((5, 4)))


def test_dict_order_is_as_in_eager():
    g = ag.convert(lambda d: {"z": d["b"] - d["a"], "keys": list(d)})
    d = {"b": np.full(2, 5.0), "a": np.ones(2)}
    got, want = g(d), g.python_function(d)
    assert got["keys"] == want["keys"] == ["b", "a"]
    assert list(got) == list(want)


def test_nested_namedtuples():
    def f(model, x):
        w1, w2 = model.weights
        hidden = np.tanh(x @ w1.left + w1.right)
        return Pair(hidden @ w2.left, Pair(hidden.mean(), model.config["name"]))
    g = ag.convert(f)
    rng = np.random.default_rng(4)
    model = Model(weights=(Pair(rng.standard_normal((3, 4)), np.zeros(4)),
                           Pair(rng.standard_normal((4, 1)), None)),
                  config={"name": "mlp", "depth": 2})
    out = check(g, model, rng.standard_normal((2, 3)))
    assert isinstance(out, Pair) and isinstance(out.right, Pair)
    assert out.right.right == "mlp"


def test_python_values_are_returned_as_the_same_object():
    marker = object()
    config = frozenset({"a", 3})  # not a structure: a leaf (tuples would be walked)

    def f(x, tag, cfg):
        return x * 2, tag, cfg, 7, "text", None
    g = ag.convert(f)
    x = np.arange(3.0)
    out = g(x, marker, config)
    assert out[1] is marker and out[2] is config
    assert out[3:] == (7, "text", None)
    np.testing.assert_array_equal(out[0], x * 2)
    again = g(np.ones(3), marker, config)
    assert again[1] is marker and g.trace_count == 1


def test_mixed_python_and_array_outputs():
    def f(xs, scale):
        total = sum(xs)
        return {"count": len(xs), "scale": scale, "total": total * scale,
                "parts": [x / scale for x in xs]}
    g = ag.convert(f)
    xs = [np.ones((2, 2), np.float32), np.eye(2, dtype=np.float32)]
    out = check(g, xs, 4)
    assert out["count"] == 2 and out["total"].dtype == np.float32


def test_a_returned_input_array_equals_the_input():
    g = ag.convert(lambda x, y: (x, y + 0))
    x, y = np.arange(3.0), np.arange(3)
    check(g, x, y)


def test_scalar_outputs_are_zero_d_arrays():
    g = ag.convert(lambda x: (x.sum(), x.max(), x.argmax()))
    x = np.array([3, 9, 2], np.int32)
    out = check(g, x)
    assert all(isinstance(o, np.ndarray) and o.ndim == 0 for o in out)


def test_empty_containers_and_leafless_structures():
    def f(xs, opts):
        return [x * 2 for x in xs], opts, {}
    g = ag.convert(f)
    check(g, [], {"k": ()})
    check(g, [np.ones(1)], {"k": ()})
    assert g.trace_count == 2


def test_numpy_scalar_constants_in_the_function():
    g = ag.convert(lambda x: (x * np.float32(1.5), x + np.int64(2), x > np.bool_(True)))
    check(g, np.arange(3, dtype=np.float32))


def test_numpy_float64_constant_in_the_function():
    g = ag.convert(lambda x: x + np.float64(1.0))
    check(g, np.arange(3.0))


def test_same_structure_different_leaf_kind_retraces():
    g = ag.convert(lambda p: p[0] * p[1])
    check(g, (np.ones(2), 3))
    check(g, (np.ones(2), np.float64(3)))
    check(g, (np.ones(2), 4))
    assert g.trace_count == 3


def test_structures_in_keyword_arguments():
    def f(x, *, extra):
        return x + extra["shift"], extra["label"]
    g = ag.convert(f)
    check(g, np.zeros(2), extra={"shift": np.float32(1), "label": "a"})
    check(g, np.ones(2), extra={"shift": np.float32(3), "label": "a"})
    assert g.trace_count == 1
