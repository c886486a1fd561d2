"""`grad` and `value_and_grad`: reverse-mode gradients as graph functions.

`ag.grad(fn)` is a graph function, cached per input signature like
`ag.convert(fn)`. Tracing it traces `fn` (converted, from its own cache),
differentiates that graph (`runtime.autodiff.grad_graph`: forward pass, then
backward pass, through `cond` and `while` too) and emits the result, so a
gradient can be called eagerly, used inside another graph function, or
differentiated again.

>>> import numpy as np
>>> import autograph as ag
>>> def loss(w, x):
...     return np.sum(np.tanh(x @ w) ** 2)
>>> w, x = np.ones((3, 2)), np.full((4, 3), 0.1)
>>> np.round(ag.grad(loss)(w, x), 4)
array([[0.2133, 0.2133],
       [0.2133, 0.2133],
       [0.2133, 0.2133]])
"""
from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence

from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.autodiff import emit_graph, grad_graph
from autograph_runtime.autodiff.cotangents import as_tracer
from autograph_runtime.autodiff.transform import check_differentiable_input, check_scalar_output
from autograph_runtime.effects import graph_effects
from autograph_runtime.tracing import trace_to_graph
from autograph_runtime.tree import flatten
from autograph_runtime.variable_scope import CreationScope
from autograph_runtime.variables import Variable

from .convert import convert
from .function import GraphFunction
from .shared_traces import share_key


class _Default(int):
    """`argnums`'s default, 0, told apart from an explicit 0 (it matters with `wrt`)."""

    def __repr__(self):
        return "0"


_ARGNUMS_DEFAULT = _Default(0)


def grad(fn: Callable, argnums: int | Sequence[int] = _ARGNUMS_DEFAULT, has_aux: bool = False,
         wrt: Sequence[Variable] | None = None) -> GraphFunction:
    """The gradient of scalar-valued `fn` with respect to its arguments `argnums`.

    Args:
      fn: a function (converted when traced) or a graph function, returning a
        floating-point scalar, or `(scalar, aux)` with `has_aux`.
      argnums: the position of the argument to differentiate (its gradient has
        its structure), or a tuple of positions (a tuple of gradients).
      has_aux: `fn` returns `(loss, aux)`; the gradient function then returns
        `(gradients, aux)`.
      wrt: a list of float `Variable`s `fn` reads (and does not write): the
        gradient is then the list of their gradients, in order, or the pair
        `(argument gradients, variable gradients)` where `argnums` is given too.
    """
    return _gradient_function(fn, argnums, has_aux, with_value=False, wrt=wrt)


def value_and_grad(fn: Callable, argnums: int | Sequence[int] = _ARGNUMS_DEFAULT,
                   has_aux: bool = False,
                   wrt: Sequence[Variable] | None = None) -> GraphFunction:
    """Like `grad`, but returns `(value, gradients)` (`((value, aux), gradients)` with aux)."""
    return _gradient_function(fn, argnums, has_aux, with_value=True, wrt=wrt)


def _positions(argnums) -> tuple:
    if isinstance(argnums, int):
        return (argnums,)
    if isinstance(argnums, (tuple, list)) and argnums:
        positions = tuple(operator.index(i) for i in argnums)
        if len(set(positions)) != len(positions):
            raise ValueError(f"argnums {tuple(argnums)} names an argument twice")
        return positions
    raise TypeError(f"argnums must be an int or a non-empty tuple of ints, not {argnums!r}")


def _gradient_function(fn, argnums, has_aux, with_value, wrt=None) -> GraphFunction:
    variables = _variables(wrt)
    only_variables = variables is not None and argnums is _ARGNUMS_DEFAULT
    positions = () if only_variables else _positions(argnums)
    target = fn if isinstance(fn, GraphFunction) else convert(fn)
    python_function = target.python_function

    @functools.wraps(python_function)
    def gradient(*args, **kwargs):
        loss, aux, grads, var_grads = _traced_gradient(target, args, kwargs, positions, has_aux,
                                                       variables or [])
        grads = grads[0] if isinstance(argnums, int) and positions else tuple(grads)
        if variables is not None:
            grads = var_grads if only_variables else (grads, var_grads)
        value = (loss, aux) if has_aux else loss
        if with_value:
            return value, grads
        return (grads, aux) if has_aux else grads
    prefix = "value_and_grad" if with_value else "grad"
    gradient.__name__ = f"{prefix}_{getattr(python_function, '__name__', 'fn')}"
    gradient.__qualname__ = gradient.__name__
    gradient._ag_traces = python_function   # whose bindings its graph reads (frozen_bindings.py)
    return GraphFunction(gradient, autograph=False, _eager=False,
                         _share_key=_share_key(target, argnums, has_aux, with_value, variables))


def _share_key(target, argnums, has_aux, with_value, variables):
    """The key under which gradients of `target`'s function share traces (None: they do not).

    Two gradient functions share where they differentiate the same traces
    (`target`'s `SharedTraces`, which also keeps `variables` alive through its
    first gradient function) the same way.
    """
    if share_key(target.python_function, ()) is None:
        return None
    argnums_key = (argnums is _ARGNUMS_DEFAULT,
                   tuple(argnums) if isinstance(argnums, (list, tuple)) else argnums)
    wrt = None if variables is None else tuple(map(id, variables))
    return ("gradient", target._shared, argnums_key, has_aux, with_value, wrt)


def _variables(wrt):
    if wrt is None:
        return None
    variables = list(wrt)
    for v in variables:
        if not isinstance(v, Variable):
            raise TypeError(f"wrt= takes a list of ag.Variable, not {type(v).__name__}")
        check_differentiable_input(v.resource_type.value_type, f"Variable {v.name!r}")
    if len({id(v) for v in variables}) != len(variables):
        raise ValueError("wrt= lists a variable twice")
    return variables


def _traced_gradient(target, args, kwargs, positions, has_aux, variables):
    """Traces `target` on `args`, differentiates it with respect to the arguments at
    `positions` and `variables`; emits (loss, aux, grads per position, grads per variable)."""
    name = target.__name__
    positions = _checked_positions(positions, args, name)
    parts = [flatten(a) for a in args] + [flatten(kwargs)]
    leaves = [x for part_leaves, _ in parts for x in part_leaves]
    selected = [i in positions for i, (part_leaves, _) in enumerate(parts) for _ in part_leaves]
    _check_selected(leaves, selected, _labels(parts), name)
    traced = _trace_loss(target, parts, leaves, has_aux, variables, name)
    parent = traced.builder.parent
    outer_resources = [parent.resource(v) for v in variables]
    wanted = {r.id for r in outer_resources}
    captures = traced.builder.captures
    wrt = [s for x, s in zip(leaves, selected) if isinstance(x, Tracer)]
    wrt += [outer.id in wanted for outer, _ in captures]
    inputs = [x for x in leaves if isinstance(x, Tracer)]
    result = iter(emit_graph(grad_graph(traced.graph, wrt, name=f"grad_{name}"),
                             inputs + [Tracer(parent, outer) for outer, _ in captures]))
    loss = next(result)
    aux_leaves = [next(result) if isinstance(x, Tracer) else x for x in traced.out_leaves[1:]]
    aux = traced.out_tree.children[1].unflatten(aux_leaves) if has_aux else None
    grads = [parts[i][1].unflatten([next(result) for _ in parts[i][0]]) for i in positions]
    by_resource = {outer.id: next(result) for outer, _ in captures if outer.id in wanted}
    return loss, aux, grads, [by_resource[r.id] for r in outer_resources]


def _checked_positions(positions, args, name) -> list:
    """`argnums` as non-negative positions of `args`."""
    for i in positions:
        if not -len(args) <= i < len(args):
            raise ValueError(f"argnums {i} is out of range: {name} was called with "
                             f"{len(args)} positional arguments")
    positions = [i % len(args) for i in positions]
    if len(set(positions)) != len(positions):
        raise ValueError(f"argnums names an argument of {name} twice")
    return positions


def _check_selected(leaves, selected, labels, name):
    """Raises unless every leaf to differentiate is a floating-point traced value."""
    for x, chosen, label in zip(leaves, selected, labels):
        if chosen and not isinstance(x, Tracer):
            raise TypeError(f"gradient of {name} with respect to {label}, a Python "
                            f"{type(x).__name__}: gradients are taken with respect to arrays "
                            f"(pass a NumPy array or scalar)")
        if chosen:
            check_differentiable_input(x.aval, label)


def _trace_loss(target, parts, leaves, has_aux, variables, name):
    """`target` traced into a subgraph returning its loss, then its traced aux leaves.

    The graph's outputs are `(loss, aux)` flattened; it reads `variables` and
    must not write them.
    """
    def loss_and_aux(*inner_leaves):
        it = iter(inner_leaves)
        rebuilt = [tree.unflatten([next(it) for _ in part_leaves]) for part_leaves, tree in parts]
        loss, aux = _loss_and_aux(target(*rebuilt[:-1], **rebuilt[-1]), has_aux, name)
        return as_tracer(loss), aux

    def creation_scope(builder, inputs):
        # variables made on `target`'s first call may take initial values from these inputs
        traced = [x for x in leaves if isinstance(x, Tracer)]
        arguments = {t.node.id: x for t, x in zip(inputs, traced)}
        return CreationScope(name, builder, allowed=False, inputs=arguments)

    traced = trace_to_graph(loss_and_aux, tuple(leaves), name=name, parent=current_builder(),
                            variables=variables, scope=creation_scope, build=False)
    check_scalar_output(traced.out_leaves[0].aval, f"the output of {name}")
    traced.graph = traced.builder.build(traced.outputs)
    resources = [traced.builder.resource(v) for v in variables]
    _check_not_written(traced.graph, resources, variables, name)
    return traced


def _check_not_written(graph, resources, variables, name):
    written = graph_effects(graph).writes
    for resource, variable in zip(resources, variables):
        if resource.id in written:
            raise TracingError(
                f"gradient of {name} with respect to Variable {variable.name!r}, which {name} "
                f"writes: reads before and after the write would stand for different values; "
                f"differentiate a function that only reads it")


def _loss_and_aux(out, has_aux, name):
    if not has_aux:
        return out, None
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"with has_aux=True, {name} must return a pair (loss, aux), "
                        f"not {type(out).__name__}")
    return out[0], out[1]


def _labels(parts):
    for i, (part_leaves, _) in enumerate(parts):
        kind = "keyword arguments" if i == len(parts) - 1 else f"argument {i}"
        for k in range(len(part_leaves)):
            yield kind if len(part_leaves) == 1 else f"{kind} (leaf {k})"
