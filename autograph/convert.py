"""`ag.convert`: the decorator that turns a Python function into a `GraphFunction`."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from .function import GraphFunction


def convert(fn: Callable | None = None, *, input_signature: Sequence | None = None,
            autograph: bool = True, reduce_retracing: bool = False,
            tier: str | None = None, eager_fallback: bool | None = None
            ) -> GraphFunction | Callable[[Callable], GraphFunction]:
    """Makes `fn` a graph function; usable bare (`@convert`) or with arguments.

    Args:
      fn: a function, lambda, nested function, closure or method; a
        `functools.partial` of one; an object whose class defines `__call__`;
        or a NumPy ufunc, NumPy function or Python builtin (traced as it is).

    Raises:
      ConversionError: now, for what can never be a graph function: a
        generator, a coroutine (`async def`), an async generator, or a callable
        without Python source outside NumPy and the builtins (`math.sqrt`).
      input_signature: `TensorSpec`s (nested like the arguments) for the
        positional parameters; calls must fit them and share one graph.
      autograph: rewrite Python control flow on traced values into staged
        `cond`/`while_loop` (False traces the function as it is).
      reduce_retracing: when only array shapes change between calls, trace
        one graph with unknown dimensions instead of one graph per shape.
      tier: `"numpy"`, `"native"` (machine code by Numba) or `"auto"` (native once a
        graph is hot and measured faster); None takes `ag.set_tier`'s (`autograph.tiers`).
      eager_fallback: whether a call whose trace is refused (something a graph cannot
        hold) runs the function as plain Python, with a `FallbackWarning`, rather than
        raise; None takes `ag.set_eager_fallback`'s, True by default
        (`autograph.eager_fallback`).
    """
    def wrap(function):
        if isinstance(function, GraphFunction):
            function = function.python_function
        return GraphFunction(function, input_signature=input_signature, autograph=autograph,
                             reduce_retracing=reduce_retracing, tier=tier,
                             eager_fallback=eager_fallback)
    return wrap if fn is None else wrap(fn)
