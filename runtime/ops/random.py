"""Random numbers drawn when the graph runs: `random_draw`, an effect in program order.

`np.random.rand(3)` or `rng.normal(size=3)` takes no traced operand, so NumPy
never dispatches it: converted code stages it through `ops.staged_calls`, which
calls `draw` here while a graph is traced. One `random_draw` equation calls the
generator's own method when the graph runs, so every call draws anew, in the
order eager code draws, and with the same seed the graph and the eager function
agree bit for bit. Params:

- `generator`: `"global"` (NumPy's global `RandomState`, looked up when the graph
  runs: `np.random.seed` in the running process, or in the process that loads a
  saved graph, seeds it) or the `np.random.Generator` / `RandomState` object itself,
  closed over or passed in (an argument keyed by identity, as any object is:
  `autograph.cache_keys.ObjectKey`; a graph holding one cannot be saved);
- `method`: the generator's method (`rand`/`randn` are staged as
  `random_sample`/`standard_normal`, which NumPy's `rand`/`randn` call);
- `arguments`: `(name, value)` pairs, a traced or array argument being
  `Dyn(k)`, the k-th operand.

Draws are `effectful` (I/O, `runtime.effects`): ordered with each other, with
`print` and with variable accesses, never pruned as dead code (an unused draw
still advances the generator, as eagerly), and inside a staged `cond`/`while`
drawn only where the branch is taken, once per trip. (An I/O effect rather than a
resource per generator, as a `Variable` is: draws from two generators keep their
order too, which they need not, but no generator object becomes a graph value.)
A generator's method not staged here (`rng.multivariate_normal`) runs while
tracing, with a `FrozenRandomWarning`; so does tracing that drew from the global
generator in code called as it is (`warn_frozen_draws`). `shuffle(x)` of a traced `x`
writes `x` in place (`tracer_value.write_in_place`); `seed` stages a reseeding.
A generator made while tracing (`np.random.default_rng(0)`, `RandomState(0)`) is
made once, and a `reset_generator` equation gives it, each time the graph runs,
the state eager code makes it with (fresh entropy where the seed is None).

Gradients: none through draws (a draw is a constant with respect to its
parameters; `autodiff/rules_random.py`). Draws run on the host (NumPy's
generators), their results moved to the backend's device.

>>> import autograph as ag
>>> @ag.convert
... def noisy(x):
...     return x + np.random.rand(*x.shape)
>>> np.random.seed(0); eager = noisy.python_function(np.zeros(2))
>>> np.random.seed(0); np.array_equal(noisy(np.zeros(2)), eager)
True
"""
from __future__ import annotations

import contextlib
import inspect
import warnings

import numpy as np

from .. import primitives
from ..abstract import AbstractValue, broadcast_shapes
from ..errors import TracingError
from ..source import user_stacklevel
from ..tracer import bind, current_builder
from ..tracer_value import Tracer, write_in_place
from .indexing import Dyn

GENERATORS = (np.random.Generator, np.random.RandomState)
_RENAMED = {"rand": "random_sample", "randn": "standard_normal"}
_SIZED = {  # method -> (distribution parameters, default dtype, a Python number where 0-d)
    "random": ((), np.float64, True),
    "random_sample": ((), np.float64, True),
    "standard_normal": ((), np.float64, True),
    "normal": (("loc", "scale"), np.float64, True),
    "uniform": (("low", "high"), np.float64, True),
    "integers": (("low", "high"), np.int64, False),
    "randint": (("low", "high"), np.int_, True),
    "exponential": (("scale",), np.float64, True),
    "standard_exponential": ((), np.float64, True),
    "lognormal": (("mean", "sigma"), np.float64, True),
    "laplace": (("loc", "scale"), np.float64, True),
    "beta": (("a", "b"), np.float64, True),
    "gamma": (("shape", "scale"), np.float64, True),
    "standard_gamma": (("shape",), np.float64, True),
    "poisson": (("lam",), np.int64, True),
    "binomial": (("n", "p"), np.int64, True),
    "geometric": (("p",), np.int64, True),
}
METHODS = frozenset(_SIZED) | {"rand", "randn", "choice", "permutation", "shuffle", "seed"}
_NOT_DRAWS = {"get_state", "spawn", "__reduce__", "__getstate__", "__repr__", "__str__"}


def _global():
    return np.random.mtrand._rand


def _host(x):
    return x if isinstance(x, np.ndarray) or not hasattr(x, "get") else x.get()


def _fill(value, operands):
    if isinstance(value, Dyn):
        return operands[value.k]
    if type(value) is tuple:
        return tuple(_fill(v, operands) for v in value)
    return value


def _template(value, operands):
    """`value` with traced values and arrays as `Dyn(k)` (appended to `operands`)."""
    if isinstance(value, Tracer) or isinstance(value, np.ndarray) or hasattr(value, "__ag_read__"):
        operands.append(value.read_value() if hasattr(value, "__ag_read__") else value)
        return Dyn(len(operands) - 1)
    if isinstance(value, (tuple, list)):
        return tuple(_template(v, operands) for v in value)
    if isinstance(value, type) and issubclass(value, (np.generic, int, float, bool)):
        return np.dtype(value)
    return value


def _size_shape(size) -> tuple:
    if size is None:
        return None
    if not isinstance(size, tuple):
        size = (size,)
    return tuple(None if isinstance(getattr(d, "aval", None), AbstractValue) else int(d)
                 for d in size)


def _shape_of(value) -> tuple:
    return tuple(value.aval.shape) if hasattr(value, "aval") else np.shape(value)


def _dtype_of(value) -> np.dtype:
    return value.aval.dtype if hasattr(value, "aval") else np.asarray(value).dtype


def _is_count(value) -> bool:
    """A population size (`choice(5)`, `permutation(n)`) rather than an array."""
    return _shape_of(value) == () and _dtype_of(value).kind in "iub"


def _result_aval(method, args) -> AbstractValue:
    """The type of `method(**args)`, where traced values are their operands."""
    size = _size_shape(args.get("size"))
    if method in _SIZED:
        names, default, python = _SIZED[method]
        given = [args[n] for n in names if args.get(n) is not None]
        shape = size if size is not None else broadcast_shapes(*map(_shape_of, given))
        weak = python and size is None and shape == () and (
            method != "randint" or "dtype" not in args)  # NumPy gives a Python number
        dtype = np.dtype(default if weak or args.get("dtype") is None else args["dtype"])
        return AbstractValue(shape, dtype, weak)
    if method == "choice":
        a, axis = args["a"], args.get("axis", 0)
        if _is_count(a):
            shape, dtype = (size or ()), np.dtype(np.int64)
            return AbstractValue(shape, dtype, size is None)  # NumPy: a Python int
        rest = list(_shape_of(a))
        del rest[axis]
        return AbstractValue(tuple(rest[:axis]) + (size or ()) + tuple(rest[axis:]), _dtype_of(a))
    if method in ("permutation", "shuffle"):
        x = args["x"]
        if _is_count(x) and method == "permutation":
            n = x if not hasattr(x, "aval") else None
            return AbstractValue((n,), np.dtype(np.int64))
        return AbstractValue(_shape_of(x), _dtype_of(x))
    raise AssertionError(method)


def _draw_rule(*operands, generator, method, arguments):
    if method == "seed":
        return []
    args = {name: _fill(value, operands) for name, value in arguments}
    return [_result_aval(method, args)]


def _draw_kernel(xp, generator, method, arguments):
    def run(*operands):
        source = _global() if generator == "global" else generator
        args = {name: _fill(value, [_host(o) for o in operands]) for name, value in arguments}
        if method == "shuffle":
            args["x"] = np.array(args["x"])
        result = getattr(source, method)(**args)
        if method == "seed":
            return []
        if method == "shuffle":
            result = args["x"]
        if isinstance(result, (int, float)) and not isinstance(result, np.generic):
            return [result]  # a Python number, as eagerly (a weak value)
        if isinstance(result, np.generic) and xp is np:
            return [result]  # a NumPy scalar, as eagerly: `a[j]` with it is a view
        return [xp.asarray(result)]
    return run


def _reset_kernel(xp, generator, state):
    def run():
        bits = getattr(generator, "bit_generator", None)
        if bits is None:  # a RandomState
            generator.set_state(state if state is not None else np.random.RandomState().get_state())
        else:
            bits.state = state if state is not None else type(bits)().state
        return []
    return run


random_draw_p = primitives.define("random_draw", _draw_rule, _draw_kernel,
                                  multiple_results=True, effectful=True)
reset_generator_p = primitives.define("reset_generator", lambda **p: [], _reset_kernel,
                                      multiple_results=True, effectful=True)
primitives.save_rules[random_draw_p] = lambda eqn: (
    None if eqn.params["generator"] == "global" else
    f"it draws from a {type(eqn.params['generator']).__name__} object, which cannot be saved; "
    f"draw from NumPy's global generator (np.random.*), or pass the random numbers in as "
    f"an argument")
primitives.save_rules[reset_generator_p] = lambda eqn: (
    "it makes a random generator, which cannot be saved; pass the random numbers in as an "
    "argument instead")


def draw(method, *args, **kwargs):
    """`method(*args, **kwargs)` (a bound method of a generator), staged as a draw."""
    source, name = method.__self__, method.__name__
    if name == "shuffle" and not isinstance(args[0] if args else kwargs.get("x"), Tracer):
        raise TracingError(
            f"{name}() of an array that is not traced cannot be staged: the graph cannot "
            f"write a NumPy array in place; write `x = rng.permutation(x)` instead")
    bound = inspect.signature(method).bind(*args, **kwargs).arguments
    if name in _RENAMED:
        bound, name = {"size": bound.get("args") or None}, _RENAMED[name]
    if bound.get("out") is not None:
        raise TracingError(f"{name}(..., out=...) is not supported in a graph; use its result")
    operands: list = []
    arguments = tuple((k, _template(v, operands)) for k, v in bound.items())
    generator = "global" if source is _global() else source
    results = bind(random_draw_p, *operands, generator=generator, method=name,
                   arguments=arguments)
    if name == "seed":
        return None
    if results[0].ndim == 0 and bound.get("size") is not None:   # `size=()`: a 0-d array
        results[0].builder.maybe_arrays.add(results[0].node.id)
    if name == "shuffle":
        write_in_place(bound["x"], results[0], "shuffle")
        return None
    return results[0]


def make_generator(factory, *args, **kwargs):
    """`factory(*args, **kwargs)` (`np.random.default_rng`, `RandomState`, `Generator`)
    made now, and given back its first state each time the graph runs."""
    if any(isinstance(a, Tracer) for a in (*args, *kwargs.values())):
        raise TracingError(f"{getattr(factory, '__name__', factory)}() with a traced seed "
                           f"cannot be staged; pass the generator in as an argument instead")
    if factory is np.random.default_rng and args and isinstance(args[0], GENERATORS):
        return args[0]  # NumPy returns the generator it is given
    generator = factory(*args, **kwargs)
    seed = args[0] if args else kwargs.get("seed", kwargs.get("bit_generator"))
    bits = getattr(generator, "bit_generator", None)
    state = None if seed is None else (bits.state if bits is not None else generator.get_state())
    bind(reset_generator_p, generator=generator, state=state)
    return generator


class FrozenRandomWarning(UserWarning):
    """Random numbers were drawn from NumPy's global generator while tracing: frozen."""


def _global_position():
    state = _global().get_state()
    return state[1].tobytes(), state[2], state[3], state[4]


@contextlib.contextmanager
def warn_frozen_draws(name: str):
    """Warns where tracing `name` drew from NumPy's global generator eagerly (code called
    as it is: a library, a `do_not_convert` function): those numbers are frozen into
    the graph, the same at every call, where eager code draws new ones."""
    before = _global_position()
    yield
    if _global_position() != before:
        warnings.warn(
            f"tracing {name!r} drew random numbers from NumPy's global generator while "
            f"tracing (in code called as it is, not converted): they are frozen into the "
            f"graph and the same at every call; call np.random from converted code, or "
            f"pass the numbers in as an argument", FrozenRandomWarning, stacklevel=user_stacklevel())


def is_draw(f) -> bool:
    """Whether `f` is a generator's method that `draw` stages."""
    return (isinstance(getattr(f, "__self__", None), GENERATORS)
            and getattr(f, "__name__", None) in METHODS)


FACTORIES = (np.random.default_rng, np.random.RandomState, np.random.Generator)


def staged(f, args, kwargs):
    """The staged call of `f`, or NotImplemented (call it as it is)."""
    if current_builder() is None:
        return NotImplemented
    if f is np.random.seed:  # a function of its own, which seeds the global RandomState
        return draw(_global().seed, *args, **kwargs)
    if is_draw(f):
        return draw(f, *args, **kwargs)
    source = getattr(f, "__self__", None)
    if isinstance(source, GENERATORS) and source is not _global() \
            and getattr(f, "__name__", "") not in _NOT_DRAWS:  # the global one: warn_frozen_draws
        warnings.warn(f"{type(source).__name__}.{f.__name__} is not staged: the numbers it "
                      f"draws while tracing are frozen into the graph, the same at every "
                      f"call; pass them in as an argument, or draw with a staged method "
                      f"({', '.join(sorted(METHODS - {'seed'}))})", FrozenRandomWarning,
                      stacklevel=user_stacklevel())
    if any(f is g for g in FACTORIES):
        return make_generator(f, *args, **kwargs)
    return NotImplemented
