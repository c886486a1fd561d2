"""Every vector-Jacobian rule against central finite differences, in float64.

A table of rows (one or more per differentiable primitive, broadcasting and
unknown dimensions included) and Hypothesis over shapes; a test fails when a
primitive has neither a rule nor a reason in `NON_DIFFERENTIABLE`.
"""
from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_grad
from test_numbers import NUMBERS_NON_DIFFERENTIABLE
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autograph as ag
from autograph_runtime import primitives
from autograph_runtime.autodiff import linearize_rules
from autograph_runtime.autodiff.cotangents import reshape_like_p, sum_to_shape_p
from autograph_runtime.autodiff.rules_indexing import scatter_add_p
from autograph_runtime.tracer import Tracer, bind

rng = np.random.default_rng(0)


def U(*shape, lo=-2.0, hi=2.0):
    """Uniform float64 values in [lo, hi]."""
    return rng.uniform(lo, hi, shape)


def P(*shape):
    """Positive values, away from 0."""
    return U(*shape, lo=0.5, hi=2.0)


def D(*shape):
    """Distinct values (no ties for max, min, sort)."""
    return rng.permutation(np.arange(int(np.prod(shape)), dtype=np.float64)).reshape(shape) \
        * 0.37 - 1.1


UNARY_DOMAINS = {
    "log": P, "log2": P, "log10": P, "log1p": P, "sqrt": P, "cbrt": P, "reciprocal": P,
    "arcsin": lambda *s: U(*s, lo=-0.9, hi=0.9), "arccos": lambda *s: U(*s, lo=-0.9, hi=0.9),
    "arctanh": lambda *s: U(*s, lo=-0.9, hi=0.9), "arccosh": lambda *s: U(*s, lo=1.5, hi=3),
    "tan": lambda *s: U(*s, lo=-1, hi=1),
}
UNARY = ["negative", "positive", "conjugate", "absolute", "fabs", "exp", "exp2", "expm1", "log",
         "log2", "log10", "log1p", "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan",
         "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
         "deg2rad", "radians", "rad2deg", "degrees", "floor", "ceil", "trunc", "rint", "sign",
         "spacing"]


def _unary_rows():
    for name in UNARY:
        make = UNARY_DOMAINS.get(name, U)
        yield pytest.param(getattr(np, name), (make(2, 3),), id=name)


BINARY = [
    ("add", U(2, 3), U(3)), ("subtract", U(2, 1), U(1, 3)), ("multiply", U(2, 3), U(2, 3)),
    ("divide", U(2, 3), P(3)), ("power", P(2, 3), U(2, 3)), ("float_power", P(3), U(2, 3)),
    ("maximum", D(2, 3), D(2, 3)), ("minimum", D(2, 3), D(3)), ("fmax", D(2, 3), D(2, 3)),
    ("fmin", D(2, 3), D(2, 3)), ("arctan2", U(2, 3), U(2, 3)), ("hypot", U(2, 3), U(3)),
    ("logaddexp", U(2, 3), U(2, 3)), ("logaddexp2", U(2, 3), U(3)),
    ("copysign", U(2, 3), U(2, 3)), ("remainder", U(2, 3), P(3)), ("fmod", U(2, 3), P(3)),
    ("nextafter", U(2, 3), U(2, 3)), ("floor_divide", U(2, 3), P(3)),
]


def _binary_rows():
    for name, a, b in BINARY:
        yield pytest.param(getattr(np, name), (a, b), id=name)


def _take(x):
    return np.take(x, np.array([2, 0, 2]), axis=1)


ROWS = [
    *_unary_rows(),
    *_binary_rows(),
    pytest.param(lambda a, b: a * b, (U(), U(4)), id="multiply-scalar-broadcast"),
    pytest.param(lambda a: a ** 2 + a ** 3, (U(2, 3),), id="power-literal"),
    pytest.param(lambda h: np.heaviside(np.array([0.0, 1.0, -1.0]), h), (U(3),),
                 id="heaviside"),
    pytest.param(lambda a: np.ldexp(a, np.array([1, -2, 3])), (U(3),), id="ldexp"),
    pytest.param(lambda a, b: np.divmod(a, b)[1], (U(2, 3), P(3)), id="divmod"),
    pytest.param(lambda a: np.modf(a)[0], (U(2, 3),), id="modf"),
    pytest.param(lambda a: np.frexp(a)[0], (P(2, 3),), id="frexp"),
    # reductions and scans
    pytest.param(lambda x: np.sum(x), (U(2, 3),), id="sum"),
    pytest.param(lambda x: np.sum(x, axis=0), (U(2, 3),), id="sum-axis0"),
    pytest.param(lambda x: np.sum(x, axis=(0, 2), keepdims=True), (U(2, 3, 2),),
                 id="sum-keepdims"),
    pytest.param(lambda x: np.mean(x, axis=1), (U(2, 3),), id="mean"),
    pytest.param(lambda x: np.prod(x, axis=1), (P(2, 3),), id="prod"),
    pytest.param(lambda x: np.max(x, axis=1), (D(2, 3),), id="max"),
    pytest.param(lambda x: np.min(x), (D(2, 3),), id="min"),
    pytest.param(lambda x: np.max(np.array([1.0, 2.0]) * 0 + x), (np.array([3.0, 3.0]),),
                 id="max-ties"),
    pytest.param(lambda x: np.std(x, axis=0), (U(3, 2),), id="std"),
    pytest.param(lambda x: np.var(x, ddof=1), (U(3, 2),), id="var-ddof"),
    pytest.param(lambda x: np.cumsum(x, axis=1), (U(2, 3),), id="cumsum"),
    pytest.param(lambda x: np.cumsum(x), (U(2, 3),), id="cumsum-flat"),
    pytest.param(lambda x: np.cumprod(x, axis=0), (P(3, 2),), id="cumprod"),
    pytest.param(lambda x: np.cumprod(x), (P(2, 2),), id="cumprod-flat"),
    # shapes, joining, creation
    pytest.param(lambda x: x.reshape(3, 2), (U(2, 3),), id="reshape"),
    pytest.param(lambda x: np.reshape(x, (3, 2), order="F"), (U(2, 3),), id="reshape-F"),
    pytest.param(lambda x: np.transpose(x, (1, 2, 0)), (U(2, 3, 4),), id="transpose"),
    pytest.param(lambda x: np.squeeze(x, axis=1), (U(2, 1, 3),), id="squeeze"),
    pytest.param(lambda x: np.expand_dims(x, (0, 2)), (U(2, 3),), id="expand_dims"),
    pytest.param(lambda x: np.broadcast_to(x, (4, 2, 3)), (U(2, 1),), id="broadcast_to"),
    pytest.param(lambda x: np.copy(x), (U(2, 3),), id="copy"),
    pytest.param(lambda x, lo, hi: np.clip(x, lo, hi), (U(2, 3), U(3) - 1, U(2, 1) + 1),
                 id="clip"),
    pytest.param(lambda x: np.clip(x, -0.5, None), (U(2, 3),), id="clip-min"),
    pytest.param(lambda x: np.clip(x, None, 0.5), (U(2, 3),), id="clip-max"),
    pytest.param(lambda a, b: np.concatenate([a, b, a], axis=1), (U(2, 3), U(2, 1)),
                 id="concatenate"),
    pytest.param(lambda a, b: np.concatenate([a, b], axis=None), (U(2, 3), U(4)),
                 id="concatenate-flat"),
    pytest.param(lambda a, b: np.stack([a, b], axis=1), (U(2, 3), U(2, 3)), id="stack"),
    pytest.param(lambda x: np.split(x, [1, 3], axis=1)[2] * 2 + np.split(x, [1, 3], axis=1)[0],
                 (U(2, 4),), id="split"),
    pytest.param(lambda c, x, y: np.where(c, x, y),
                 (np.array([True, False, True]), U(2, 3), U(3)), id="where"),
    pytest.param(lambda x, v: np.full_like(x, v), (U(2, 3), U()), id="full_like"),
    pytest.param(lambda x: np.zeros_like(x) + np.ones_like(x) * x, (U(2, 3),), id="zeros_like"),
    pytest.param(lambda x: x.astype(np.float64) * 2, (U(2, 3),), id="astype"),
    # indexing
    pytest.param(lambda x: x[1], (U(3, 2),), id="getitem-int"),
    pytest.param(lambda x: x[:, 1:3], (U(2, 4),), id="getitem-slice"),
    pytest.param(lambda x: x[::-1, None, ..., 1], (U(3, 2),), id="getitem-reverse"),
    pytest.param(lambda x: x[np.array([0, 0, 2])], (U(3, 2),), id="getitem-repeated"),
    pytest.param(lambda x: x[x > 0], (U(3, 2),), id="getitem-mask"),
    pytest.param(lambda x: x[np.array([1, 0]), np.array([0, 1])], (U(3, 2),),
                 id="getitem-pairs"),
    pytest.param(_take, (U(2, 3),), id="take"),
    # products
    pytest.param(lambda a, b: a @ b, (U(2, 3), U(3, 4)), id="matmul"),
    pytest.param(lambda a, b: a @ b, (U(3), U(3, 4)), id="matmul-vector-matrix"),
    pytest.param(lambda a, b: a @ b, (U(2, 3), U(3)), id="matmul-matrix-vector"),
    pytest.param(lambda a, b: a @ b, (U(3), U(3)), id="matmul-vectors"),
    pytest.param(lambda a, b: a @ b, (U(2, 2, 3), U(3, 4)), id="matmul-batched"),
    pytest.param(lambda a, b: np.dot(a, b), (U(2, 3), U(3, 2)), id="dot"),
    pytest.param(lambda a, b: np.dot(a, b), (U(2, 2, 3), U(4, 3, 2)), id="dot-nd"),
    pytest.param(lambda a, b: np.dot(a, b), (U(3), U(3)), id="dot-vectors"),
    pytest.param(lambda a, b: np.dot(a, b), (U(), U(3)), id="dot-scalar"),
    pytest.param(lambda a, b: np.inner(a, b), (U(2, 3), U(4, 3)), id="inner"),
    pytest.param(lambda a, b: np.outer(a, b), (U(2, 2), U(3)), id="outer"),
    pytest.param(lambda a, b: np.tensordot(a, b, axes=([1, 0], [0, 2])), (U(2, 3, 4), U(3, 5, 2)),
                 id="tensordot"),
    pytest.param(lambda a, b: np.einsum("ij,jk->ik", a, b), (U(2, 3), U(3, 4)), id="einsum"),
    pytest.param(lambda a, b: np.einsum("bij,bj", a, b), (U(2, 3, 4), U(2, 4)),
                 id="einsum-implicit"),
    pytest.param(lambda a, b: np.einsum("...ij,jk->...ik", a, b), (U(2, 2, 3), U(3, 4)),
                 id="einsum-ellipsis"),
    pytest.param(lambda a, b: np.einsum("ij,k->i", a, b), (U(2, 3), U(4)), id="einsum-summed"),
    # sorting
    pytest.param(lambda x: np.sort(x, axis=-1) * np.arange(3), (D(2, 3),), id="sort"),
    pytest.param(lambda x: np.sort(x, axis=0) * np.arange(2)[:, None], (D(2, 3),),
                 id="sort-axis0"),
    pytest.param(lambda x: np.sort(x, axis=None) * np.arange(6), (D(2, 3),), id="sort-flat"),
]


@pytest.mark.parametrize("fn, args", ROWS)
def test_rule(fn, args):
    check_grad(fn, *args)


UNKNOWN_DIMS = ["add", "subtract", "hypot", "sum", "sum-axis0", "mean", "std", "cumsum-flat",
                "reshape", "concatenate", "stack", "getitem-slice", "getitem-mask", "matmul",
                "where", "max", "clip", "expand_dims"]


@pytest.mark.parametrize("fn, args", [r for r in ROWS if r.id in UNKNOWN_DIMS])
def test_rule_with_unknown_dims(fn, args):
    specs = [ag.TensorSpec((None,) * np.ndim(a), np.result_type(a)) for a in args]
    check_grad(fn, *args, specs=specs)


def test_gradients_keep_float32():
    x, y = U(2, 3).astype(np.float32), U(3).astype(np.float32)
    gx, gy = ag.grad(lambda x, y: np.sum(np.tanh(x * y) / (y + 3.0)), argnums=(0, 1))(x, y)
    assert gx.dtype == gy.dtype == np.float32


# -- the primitives of runtime.autodiff -----------------------------------------------------
def _fit_and_scatter(x, big):
    """sum_to_shape, reshape_like and scatter_add on traced values; NumPy's own eagerly."""
    if not isinstance(x, Tracer):
        total = (big * x).sum(axis=1, keepdims=True)
        out = np.zeros((3, 2))
        out[:, 0] = np.ravel(total)
        return out
    total = bind(reshape_like_p, np.ravel(bind(sum_to_shape_p, big * x, x)), x)
    return bind(scatter_add_p, total[:, 0], np.zeros((3, 2)), index=(slice(None), 0))


def test_sum_to_shape_reshape_like_and_scatter_add():
    check_grad(_fit_and_scatter, U(3, 1), U(3, 4),
               specs=[ag.TensorSpec((None, None), np.float64), ag.TensorSpec((3, 4), np.float64)])


# -- Hypothesis: shapes and broadcasting --------------------------------------------------
OPS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
       "hypot": np.hypot, "arctan2": np.arctan2, "logaddexp": np.logaddexp}


@settings(max_examples=40, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
       op=st.sampled_from(sorted(OPS)), seed=st.integers(0, 2**16))
def test_broadcasting_binary(shapes, op, seed):
    r = np.random.default_rng(seed)
    a, b = (r.uniform(0.5, 2.0, s) * r.choice([-1, 1], s) for s in shapes.input_shapes)
    check_grad(OPS[op], a, b)


@settings(max_examples=30, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=3), data=st.data(),
       name=st.sampled_from(["sum", "mean", "std", "var", "max", "prod"]))
def test_reductions_over_axes(shape, data, name):
    axis = data.draw(st.one_of(st.none(), hnp.valid_tuple_axes(len(shape), min_size=1)))
    keepdims = data.draw(st.booleans())
    x = np.random.default_rng(0).permutation(np.prod(shape)).reshape(shape) * 0.3 + 0.7
    fn = getattr(np, name)
    check_grad(lambda x: fn(x, axis=axis, keepdims=keepdims), x.astype(np.float64))


# -- completeness -------------------------------------------------------------------------
_BOOL_RESULT = "its result is boolean: no cotangent"
_INTEGER_ONLY = "defined on integers (and booleans) only"
_INDEX_RESULT = "its result is an integer index or size"
NON_DIFFERENTIABLE = {
    **dict.fromkeys(["equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                     "logical_and", "logical_or", "logical_xor", "logical_not", "isfinite",
                     "isinf", "isnan", "isnat", "signbit", "any", "all"], _BOOL_RESULT),
    **dict.fromkeys(["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_count", "invert",
                     "left_shift", "right_shift", "gcd", "lcm"], _INTEGER_ONLY),
    **dict.fromkeys(["argmax", "argmin", "argsort", "nonzero", "dim", "python_argsort"],
                    _INDEX_RESULT),
    "numpy_call": "NumPy's own function run as it is; ag.grad refuses it naming the function",
    "python_sorted": "Python's sorted of numbers run as it is (no permutation kept for a "
                     "cotangent); ag.grad refuses it naming the line",
    "print": "an effect without results; it runs in the forward pass",
    "format_text": "a text (Python's formatting of the values) carries no cotangent",
    "assert": "an effect without results; it runs in the forward pass",
    "stack_new": "a stack carries no cotangent",
    "python_op": "Python numbers (weak values) are computed from Python numbers only",
    "scalar": "only in the graph the NumPy tier compiles (runtime.passes.scalar_lowering), "
              "never one that is differentiated",
    "from_python": "its operand is a Python number (a weak value), which carries no cotangent",
    **dict.fromkeys(["eig", "eigvals"], "staged for complex matrices only, and complex values "
                    "carry no cotangent"),
    "assign_variable": "a write: gradients with respect to a variable the function writes "
                       "are refused (tests/test_grad_variables.py)",
    **NUMBERS_NON_DIFFERENTIABLE,
}


def test_every_differentiable_primitive_has_a_rule():
    missing = sorted(name for name, p in primitives.registry.items()
                     if p not in primitives.vjp_rules and p not in linearize_rules
                     and name not in NON_DIFFERENTIABLE)
    assert not missing, f"primitives without a gradient rule or a reason: {missing}"
    both = sorted(name for name, p in primitives.registry.items()
                  if name in NON_DIFFERENTIABLE and p in primitives.vjp_rules)
    assert not both, f"primitives listed as non-differentiable that have a rule: {both}"
