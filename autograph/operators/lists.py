"""Lists that grow inside staged loops.

`xs.append(v)` is converted to `xs = ag__.list_append(xs, v)`. On a Python list
that appends in place, as Python does. When a loop is staged, each Python list
in its state becomes a `TracedList`: one traced array stacking the elements
along a first axis of unknown length (what `tf.function` needs a `TensorArray`
for). After the loop it reads as the list eager code has:

- NumPy functions (`np.sum(xs)`, `np.mean(xs, axis=0)`, ...) see the stack
  (`__array_function__`); `np.array`, `np.asarray`, `np.stack`,
  `np.concatenate`, `len`, `sum`, `max`, `min`, `list` and `sorted` are
  `LIST_FUNCTIONS`, rules that converted calls route to `list_call`;
- `xs[i]` is an element, `xs[a:b]` a `TracedList`; `for v in xs` is a staged
  loop over the stack, and a comprehension over it (`ag__.list_comp`) too;
- returned from a graph function it is a Python list of the elements.

Elements promote as `np.array` of the eager list would (`[np.int64(3)]` then
`.append(0.5)` is float64): a staged loop casts a list's stack to the dtype its
appends give before it is traced (`settle_list_types`).
"""
from __future__ import annotations

import numpy as np

from runtime import Tracer, TracingError, current_builder
from runtime.ops.introspection import dynamic_shape
from runtime.ops.subgraphs import trace_function
from runtime.tracer import read_if_variable

from .undefined import Placeholder, is_unbound


class TracedList:
    """A list of same-typed arrays, stacked: `stack[i]` is element i."""

    def __init__(self, stack):
        self.stack = stack  # a traced array, or a Placeholder while still empty

    def __tree_flatten__(self):
        return [self.stack], None

    @classmethod
    def __tree_unflatten__(cls, aux, children):
        stack = children[0]
        if isinstance(stack, Tracer) or is_unbound(stack) or not hasattr(stack, "shape"):
            return cls(stack)
        return list(stack)  # a graph's result: the list the eager code returns

    def __stage_like__(self, other) -> "TracedList":
        """An empty list facing a filled one (in the other branch of a staged `if`) is an
        empty stack of its elements' type, not a stand-in of the other's length."""
        if type(other) is not TracedList or not is_unbound(self.stack) or is_unbound(other.stack):
            return self
        shape = (0,) + tuple(d or 0 for d in other.stack.shape[1:])
        return TracedList(np.zeros(shape, other.stack.dtype))

    def append(self, value) -> "TracedList":
        item = np.expand_dims(value, 0)
        if is_unbound(self.stack):
            return TracedList(item)
        return TracedList(np.concatenate([self.stack, item]))  # promotes as np.array would

    def sort(self):
        """`xs.sort()` on a list of numbers filled in a staged loop: sorts the stack."""
        self.stack = np.sort(_numbers(self, "sorting"))

    def stacked(self):
        if is_unbound(self.stack):
            raise TracingError("a list filled in a staged loop was used before anything "
                               "was appended to it")
        return self.stack

    def __len__(self):
        raise TracingError("len() of a list filled in a staged loop is a traced value; "
                           "use ag.shape(np.stack(xs))[0]")

    def __iter__(self):
        raise TracingError("a list filled in a staged loop has a traced length, so Python "
                           "cannot iterate over it here; iterate over it in converted code "
                           "(a `for` loop or a comprehension) or over np.stack(xs)")

    def __getitem__(self, index):
        if isinstance(index, slice):
            return TracedList(self.stacked()[index])
        return self.stacked()[index]

    def __array_function__(self, func, types, args, kwargs):
        return func(*_stacks(args), **dict(zip(kwargs, _stacks(kwargs.values()))))

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return getattr(ufunc, method)(*_stacks(inputs), **kwargs)

    def __repr__(self):
        return f"TracedList({self.stack!r})"


def _stacks(values):
    return [v.stacked() if isinstance(v, TracedList) else v for v in values]


def _numbers(target: TracedList, what: str):
    stack = target.stacked()
    if stack.ndim != 1:
        raise TracingError(f"{what} a list of arrays filled in a staged loop is not supported "
                           f"(Python compares arrays element-wise); use NumPy on np.stack(xs)")
    return stack


def list_append(target, value):
    """`target.append(value)`; returns the list (a new `TracedList` when staged)."""
    if isinstance(target, TracedList):
        return target.append(value)
    target.append(value)
    return target


def stage_lists(state):
    """Turns the Python lists of a loop's state into `TracedList`s, as the loop is staged."""
    def convert(value):
        if type(value) is not list:
            return value
        if not value:
            return TracedList(Placeholder("list"))
        stack = np.stack(value)
        if not isinstance(stack, Tracer):  # traced, so that the loop carries it
            builder = current_builder()
            stack = Tracer(builder, builder.const(stack))
        return TracedList(stack)
    return type(state)(convert(v) for v in state)


def settle_list_types(state, body_fn):
    """`state` with the stacks of its `TracedList`s cast to the dtype one step of
    `body_fn` appends gives them (a list of ints that the loop appends floats to
    holds floats), so that the staged loop keeps one dtype per list."""
    lists = [i for i, v in enumerate(state)
             if isinstance(v, TracedList) and not is_unbound(v.stack)]
    for _ in lists:  # each round settles one list at least, or ends
        traced = trace_function(body_fn, (state,), "probe", on_error=lambda s: s,
                                stand_ins="all")  # an outer array the body writes: its input
        out = traced.out_tree.unflatten(traced.out_leaves)
        changed = False
        for i in lists:
            after = out[i] if isinstance(out, tuple) and len(out) == len(state) else None
            if isinstance(after, TracedList) and not is_unbound(after.stack) \
                    and after.stack.dtype != state[i].stack.dtype:
                state = (*state[:i], TracedList(state[i].stack.astype(after.stack.dtype)),
                         *state[i + 1:])
                changed = True
        if not changed:
            break
    return state


def list_comp(iterable, element, condition=None, lazy=False):
    """`[element(v) for v in iterable if condition(v)]` (a generator when `lazy`):
    a staged loop building a `TracedList` when `iterable` is one."""
    iterable = read_if_variable(iterable)
    if not isinstance(iterable, TracedList):
        values = (element(v) for v in iterable if condition is None or condition(v))
        return values if lazy else list(values)
    from .conditionals import if_stmt
    from .loops import for_stmt

    def body(item, out):
        if condition is None:
            return (list_append(out, element(item)),)
        return if_stmt(condition(item), lambda out: (list_append(out, element(item)),),
                       lambda out: (out,), (out,), ("comprehension",))
    return for_stmt(iterable, None, body, (TracedList(Placeholder("list")),),
                    ("comprehension",))[0]


def _sum(target, start=0):
    return start + np.sum(target.stacked(), axis=0)


def _extreme(reduce, what):
    return lambda target: reduce(_numbers(target, what))


def _array(target, dtype=None):
    stack = target.stacked()
    return stack if dtype is None else stack.astype(dtype)


def _stack(target, axis=0):
    return np.moveaxis(target.stacked(), 0, axis)


def _concatenate(target, axis=0):
    stack = target.stacked()
    if axis != 0 or stack.ndim < 2:
        raise TracingError("np.concatenate of a list filled in a staged loop is supported "
                           "along axis 0 only")
    return np.reshape(stack, (-1, *stack.shape[2:]))


_LIST_RULES = {
    np.stack: _stack,
    np.array: _array,
    np.asarray: _array,
    np.concatenate: _concatenate,
    len: lambda target: dynamic_shape(target.stacked())[0],
    sum: _sum,
    max: _extreme(np.max, "max() of"),
    min: _extreme(np.min, "min() of"),
    list: lambda target: TracedList(target.stacked()),
    sorted: lambda target: TracedList(np.sort(_numbers(target, "sorting"))),
}


def list_call(function, args, kwargs=None):
    """`function(xs, ...)` for one of `LIST_FUNCTIONS`, on a `TracedList` `xs`."""
    try:
        return _LIST_RULES[function](*args, **(kwargs or {}))
    except TypeError as error:  # an argument the rule does not take
        raise TracingError(f"{getattr(function, '__name__', function)}() of a list filled in "
                           f"a staged loop takes no such arguments here ({error}); call it "
                           f"on np.stack(xs)") from None


LIST_FUNCTIONS = tuple(_LIST_RULES)


def is_traced_list(value) -> bool:
    return isinstance(value, TracedList)
