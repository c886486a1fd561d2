"""Lists whose length the graph computes: grown in staged loops, or under a staged `if`.

`xs.append(v)` is converted to `xs = ag__.list_append(xs, v)`. On a Python list
that appends in place, as Python does. When a loop is staged, each Python list
in its state becomes a `TracedList`: one traced array stacking the elements
along a first axis of unknown length (what `tf.function` needs a `TensorArray`
for). So does a list that the branches of a staged `if` leave with different
lengths (`composite.staged_block` traces the `if` again with it stacked,
`stage_list`): each branch appends to the stack, and the `cond` picks one.

    L = []
    if x.sum() > 0:          # traced
        L.append(x[0])
    L.append(x[1])
    return np.sum(L), len(L)

is traced, for `x:f64[2]`, as

    const t0:f64[0]                                   # [] facing [x[0]]
    L:f64[?] = cond t2 x t0
      true(x_1:f64[2], t3:f64[0]) { ...  L_1:f64[1] = expand_dims[axis=(0,)] t4 ... }
      false(x_2:f64[2], t5:f64[0]) { return t5 }
    L_2:f64[?] = concatenate[axis=0] L t7             # L.append(x[1])
    t8:f64[] = sum[axis=None, keepdims=False] L_2
    t9:i64[] = dim[axis=0] L_2
    t10:i64[]~weak = python_op[op='int'] t9           # len(L): a Python int

After the block it reads as the list eager code has:

- NumPy functions (`np.sum(xs)`, `np.mean(xs, axis=0)`, ...) see the stack
  (`__array_function__`); `np.array`, `np.asarray`, `np.stack`,
  `np.concatenate`, `len`, `sum`, `max`, `min`, `list` and `sorted` are
  `LIST_FUNCTIONS`, rules that converted calls route to `list_call`;
- `xs[i]` is an element, `xs[a:b]` a `TracedList`; `for v in xs` is a staged
  loop over the stack, and a comprehension over it (`ag__.list_comp`) too;
- returned from a graph function it is a Python list of the elements.

Elements promote as `np.array` of the eager list would (`[np.int64(3)]` then
`.append(0.5)` is float64): a staged loop casts a list's stack to the dtype its
appends give before it is traced (`settle_list_types`). What the stack cannot
say, its `ListFacts` keep while tracing: where elements of different dtypes were
promoted, reading one as itself (`max`, `xs[i]`, the returned list) is a
`PathTypeError`; where branches leave it with elements of different dtypes, the
stack holds their promotion and reading it whole (`np.sum`) is a `PathTypeError`
until appends give it one dtype on every path; where some path leaves the list
empty, what eager code does with `[]` (NumPy reads it as float64 of shape (0,),
`np.stack` raises) happens when the graph runs on that path.
"""
from __future__ import annotations

import numpy as np

import autograph_runtime as runtime
from autograph_runtime import Tracer, current_builder
from autograph_runtime.errors import ContainerStagingError, PathTypeError
from autograph_runtime.ops.effects import assert_
from autograph_runtime.abstract import python_aval
from autograph_runtime.ops.introspection import dynamic_shape
from autograph_runtime.ops.python_numbers import convert_weak
from autograph_runtime.source import location_note, user_source
from autograph_runtime.ops.subgraphs import trace_function
from autograph_runtime.tracer import read_if_variable

from .undefined import Placeholder, is_unbound


class ListFacts:
    """What a `TracedList` knows while tracing that its stack does not say: the
    list's name (for errors), whether some path leaves it empty, whether its
    elements had different dtypes (`max`, `min` and `xs[i]` give an element itself
    in eager code, not its promoted value), whether it grew in the block, and
    `dtypes`: where the branches of a staged `if` left it holding elements of
    different dtypes (its stack holds their promotion), the dtypes `np.array` of
    the eager list has on the paths (else None). Any two are equal, so they never
    make two paths' structures differ; a staged `if` joins them (`__stage_like__`)."""

    __slots__ = ("name", "may_be_empty", "mixed", "grown", "dtypes")

    def __init__(self, name=None, may_be_empty=False, mixed=False, grown=False, dtypes=None):
        self.name, self.may_be_empty, self.mixed = name, may_be_empty, mixed
        self.grown, self.dtypes = grown, dtypes

    def joined(self, other: "ListFacts") -> "ListFacts":
        dtypes = (self.dtypes or frozenset()) | (other.dtypes or frozenset())
        return ListFacts(self.name if self.name == other.name else None,
                         self.may_be_empty or other.may_be_empty, self.mixed or other.mixed,
                         self.grown or other.grown, dtypes or None)

    def but(self, **changes) -> "ListFacts":
        """These facts, with `changes`."""
        fields = {k: getattr(self, k) for k in self.__slots__}
        return ListFacts(**{**fields, **changes})

    def __eq__(self, other):
        return isinstance(other, ListFacts)

    def __hash__(self):
        return hash(ListFacts)

    def __repr__(self):
        return f"ListFacts({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"


class TracedList:
    """A list of same-typed arrays, stacked: `stack[i]` is element i."""

    def __init__(self, stack, facts: ListFacts | None = None):
        self.stack = stack  # a traced array, or a Placeholder while still empty
        self.facts = facts or ListFacts()

    def __tree_flatten__(self):
        return [self.stack], self.facts

    @classmethod
    def __tree_unflatten__(cls, aux, children):
        stack = children[0]
        if is_unbound(stack) and current_builder() is None:
            return []  # a graph's result where no path appends: eager's empty list
        if isinstance(stack, Tracer) or is_unbound(stack) or not hasattr(stack, "shape") \
                or current_builder() is not None:  # a stand-in of one, while tracing
            return cls(stack, aux)
        if aux is not None and aux.mixed:
            raise PathTypeError(
                f"the graph returns list {aux.name or 'L'!r}, which holds elements of different "
                f"dtypes, promoted to {stack.dtype} in the graph: eager code returns each "
                f"element as it was appended; convert the elements as you append them")
        return list(stack)  # a graph's result: the list the eager code returns

    def __stage_like__(self, other) -> "TracedList":
        """Facing `other` (the other branch of a staged `if`, or a loop body's output):
        an empty list facing a filled one is an empty stack of its elements' type, not
        a stand-in of the other's length; either leaving it empty leaves it maybe empty."""
        if type(other) is not TracedList:
            return self
        facts = self.joined(other)
        if not is_unbound(self.stack) or is_unbound(other.stack):
            return TracedList(self.stack, facts)
        shape = (0,) + tuple(d or 0 for d in other.stack.shape[1:])
        return TracedList(_traced(np.zeros(shape, other.stack.dtype)), facts)

    @property
    def name(self) -> str:
        return self.facts.name or "the list"

    def possible_dtypes(self) -> frozenset:
        """The dtypes `np.array` of the eager list may have (one per path it took)."""
        if self.facts.dtypes:
            return self.facts.dtypes
        return frozenset() if is_unbound(self.stack) else frozenset({np.dtype(self.stack.dtype)})

    def joined(self, other: "TracedList") -> ListFacts:
        """The facts of this list and `other`, the same list on two paths."""
        dtypes = self.possible_dtypes() | other.possible_dtypes()
        return self.facts.joined(other.facts).but(dtypes=dtypes if len(dtypes) > 1 else None)

    def _grown_dtypes(self, dtype):
        """`facts.dtypes` once elements of `dtype` are appended (None: one dtype again)."""
        if not self.facts.dtypes:
            return None
        dtypes = frozenset(np.result_type(d, dtype) for d in self.facts.dtypes)
        return dtypes if len(dtypes) > 1 else None

    def append(self, value) -> "TracedList":
        item = _traced(np.expand_dims(value, 0))
        if is_unbound(self.stack):
            return TracedList(item, self.facts.but(may_be_empty=False, grown=True,
                                                   dtypes=self._grown_dtypes(item.dtype)))
        facts = self.facts.but(may_be_empty=False, grown=True,
                               mixed=self.facts.mixed or item.dtype != self.stack.dtype,
                               dtypes=self._grown_dtypes(item.dtype))
        if not fits(self.stack.shape[1:], item.shape[1:]):
            raise ContainerStagingError(
                f"list {self.name!r} holds elements of shape "
                f"{shape_text(self.stack.shape[1:])} and is appended one of shape "
                f"{shape_text(item.shape[1:])}"
                f"{location_note(user_source())}: a list whose length is traced is one "
                f"stacked array, which cannot hold both; append arrays of one shape")
        return TracedList(np.concatenate([self.stack, item]), facts)  # promotes as np.array would

    def element(self, stack, what: str):
        """`stack` (read from this list's), an element as eager code gets it."""
        if self.facts.mixed:
            raise PathTypeError(
                f"{what} list {self.name!r}, which holds elements of different dtypes "
                f"promoted to {self.stack.dtype} in the graph{location_note(user_source())}: "
                f"eager code gets the element itself, whose type depends on the path; "
                f"convert the elements as you append them (`float(v)`)")
        return stack

    def sort(self):
        """`xs.sort()` on a list of numbers filled in a staged loop: sorts the stack."""
        self._in_place("sort")
        if not is_unbound(self.stack):
            self.stack = np.sort(_numbers(self, "sorting"))

    def extend(self, values):
        """`xs.extend(values)` (in place, as `sort`): appends each item of a Python
        sequence, or each row of a traced array (its items, as Python iterates it)."""
        self._in_place("extend")
        values = read_if_variable(values)
        if isinstance(values, Tracer):
            if values.ndim == 0:
                raise TypeError("iteration over a 0-d array")   # NumPy's error
            length = values.shape[0]
            values = TracedList(values, ListFacts(may_be_empty=length is None or length == 0))
        elif type(values) is not TracedList:
            values = list(values)
        extended = self + values
        self.stack, self.facts = extended.stack, extended.facts

    def _in_place(self, method: str):
        """`TracingError` where a staged block being traced writes a list it does not
        carry (one from outside its trace, which would not see the change)."""
        from .composite import in_staged_block
        own = isinstance(self.stack, Tracer) and self.stack.builder is current_builder()
        if in_staged_block() and not own:
            raise ContainerStagingError(
                f"{self.name}.{method}() inside an `if` or loop on a traced value, on a list "
                f"whose length is traced{location_note(user_source())}, is not supported; "
                f"assign a new list instead (`xs = sorted(xs)`, `xs = xs + [v]`)")

    def __add__(self, other) -> "TracedList":
        """`xs + [v, w]` or `xs + ys`: a new `TracedList`."""
        if type(other) is list:
            out = self
            for value in other:
                out = out.append(value)
            return TracedList(out.stack, out.facts.but(name=self.facts.name))
        if not isinstance(other, TracedList):
            return NotImplemented
        dtypes = frozenset(np.result_type(a, b) for a in self.possible_dtypes()
                           for b in other.possible_dtypes())
        facts = self.facts.but(may_be_empty=self._may_be_empty() and other._may_be_empty(),
                               mixed=self.facts.mixed or other.facts.mixed, grown=True,
                               dtypes=dtypes if len(dtypes) > 1 else None)
        if is_unbound(other.stack) or is_unbound(self.stack):
            stack = self.stack if is_unbound(other.stack) else other.stack
            return TracedList(stack, facts)
        if not fits(self.stack.shape[1:], other.stack.shape[1:]):
            self.append(other.stack[0])  # the error naming the shapes
        facts.mixed = facts.mixed or self.stack.dtype != other.stack.dtype
        return TracedList(np.concatenate([self.stack, other.stack]), facts)

    def _may_be_empty(self) -> bool:
        return self.facts.may_be_empty or is_unbound(self.stack)

    def copy(self) -> "TracedList":
        return TracedList(self.stack, self.facts)

    def reverse(self):
        """`xs.reverse()`, in place (as `sort`)."""
        self._in_place("reverse")
        if not is_unbound(self.stack):
            self.stack = self.stack[::-1]

    def __radd__(self, other) -> "TracedList":
        if type(other) is not list:
            return NotImplemented
        start = stage_list(other, self.facts.name or "the list") if other else \
            TracedList(Placeholder("list"), self.facts.but(may_be_empty=True))
        return start + self

    def __getattr__(self, name):
        if name in _LIST_METHODS:
            raise ContainerStagingError(
                f"{self.name}.{name}() on a list whose length is traced (filled in a staged "
                f"loop, or on one path of an `if` on a traced value)"
                f"{location_note(user_source())} is not supported; append to it, or use "
                f"NumPy on np.stack({self.facts.name or 'xs'})")
        raise AttributeError(name)

    def eager_array(self, what: str, dtype=None):
        """The stack, where NumPy reads the eager list as it. An empty list is float64
        of shape (0,): where some path leaves the list empty and its elements are not
        float64 numbers, the graph raises `PathTypeError` when it runs on that path;
        where `np.array` of the eager list has another dtype on another path (and no
        `dtype` is asked for), `PathTypeError` now."""
        if dtype is None:
            self.one_dtype(what)
        stack = self.stacked()
        if self.facts.may_be_empty and (stack.ndim != 1 or (
                dtype is None and stack.dtype != np.float64)):
            assert_(dynamic_shape(stack)[0] > 0, PathTypeError(
                f"{what} list {self.name!r}, empty on this path of a traced `if` or loop "
                f"and holding {stack.dtype} elements of shape {shape_text(stack.shape[1:])} "
                f"on another{location_note(user_source())}: NumPy reads an empty list as "
                f"float64 of shape (0,), so the result's type depends on the path; append "
                f"to it on every path first"))
        return stack

    def one_dtype(self, what: str):
        """`PathTypeError` where `np.array` of the eager list has a dtype per path."""
        if self.facts.dtypes:
            raise PathTypeError(
                f"{what} list {self.name!r}, which holds "
                f"{' or '.join(sorted(str(d) for d in self.facts.dtypes))} elements "
                f"depending on the path through an `if` on a traced value"
                f"{location_note(user_source())}: the result's type depends on the path; "
                f"convert the elements as you append them")

    def nonempty(self, error: BaseException):
        """The stack, with `error` raised when the graph runs where the list is empty."""
        if is_unbound(self.stack):
            raise error
        stack = self.stacked()
        if self.facts.may_be_empty:
            assert_(dynamic_shape(stack)[0] > 0, error)
        return stack

    def __bool__(self):
        raise ContainerStagingError(f"the truth value of list {self.name!r}, filled in a staged "
                           f"block, is traced{location_note(user_source())}; test "
                           f"`len({self.facts.name or 'xs'}) > 0` instead")

    def stacked(self):
        """The stack; where nothing was appended yet on this path (a branch, or the
        first step of a loop), what NumPy reads `[]` as: float64 of shape (0,)."""
        if is_unbound(self.stack):
            return np.zeros((0,))
        return self.stack

    def __len__(self):
        raise ContainerStagingError("len() of a list filled in a staged loop or if is a traced "
                           "value; use ag.shape(np.stack(xs))[0]")

    def __iter__(self):
        raise ContainerStagingError("a list filled in a staged loop or if has a traced length, so Python "
                           "cannot iterate over it here; iterate over it in converted code "
                           "(a `for` loop or a comprehension) or over np.stack(xs)")

    def __getitem__(self, index):
        if isinstance(index, slice):  # which may be empty
            return TracedList(self.stack if is_unbound(self.stack) else self.stack[index],
                              self.facts.but(may_be_empty=True))
        return self.element(self.stacked()[index], "an item of")

    def __array_function__(self, func, types, args, kwargs):
        what = f"np.{getattr(func, '__name__', 'function')}() of"
        return func(*_stacks(args, what), **dict(zip(kwargs, _stacks(kwargs.values(), what))))

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return getattr(ufunc, method)(*_stacks(inputs, f"np.{ufunc.__name__}() of"), **kwargs)

    def __repr__(self):
        return f"TracedList({self.stack!r})"


_LIST_METHODS = ("pop", "insert", "remove", "index", "count", "clear")


def _stacks(values, what):
    return [v.eager_array(what) if isinstance(v, TracedList) else v for v in values]


def fits(a: tuple, b: tuple) -> bool:
    """Element shapes one stack can hold (an unknown dimension fits any)."""
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def shape_text(shape) -> str:
    return str(tuple("?" if d is None else d for d in shape))


def _numbers(target: TracedList, what: str):
    stack = target.stacked()
    if stack.ndim != 1:
        raise ContainerStagingError(f"{what} a list of arrays filled in a staged loop or if is not "
                           f"supported (Python compares arrays element-wise); use NumPy on "
                           f"np.stack(xs)")
    return stack


def list_append(target, value):
    """`target.append(value)`; returns the list (a new `TracedList` when staged)."""
    if isinstance(target, TracedList):
        return target.append(value)
    target.append(value)
    return target


def stage_lists(state, names=None):
    """Turns the Python lists of a loop's state into `TracedList`s, as the loop is staged
    (elements of different dtypes before it are `mixed`: their stack promotes them)."""
    names = names or ("",) * len(state)
    return type(state)(_stacked(v, ListFacts(name or None, may_be_empty=not v,
                                             mixed=len(_dtypes(v)) > 1))
                       if type(v) is list else v for v, name in zip(state, names))


def _dtypes(value: list) -> set:
    """The dtypes `np.asarray` gives the elements of the Python list `value`."""
    return {v.dtype if isinstance(v, Tracer) else np.asarray(v).dtype for v in value}


def stage_list(value: list, name: str) -> TracedList:
    """The Python list `value` (named `name`) as a `TracedList`, before a staged `if`
    whose branches leave it with different lengths: its elements must be numbers or
    arrays of one shape (`TracingError` naming it otherwise)."""
    shapes = {np.shape(v) for v in value}
    if len(shapes) > 1 or not all(isinstance(v, _ELEMENTS) for v in value) \
            or any(getattr(v, "dtype", None) == object for v in value):
        kinds = sorted({type(v).__name__ for v in value})
        raise ContainerStagingError(
            f"list {name!r} has a different length on two paths of an `if` on a traced value"
            f"{location_note(user_source())}, so the graph holds it as one stacked array; "
            f"its elements ({', '.join(kinds)} of shapes "
            f"{', '.join(map(shape_text, sorted(shapes, key=str)))}) cannot be stacked; give it "
            f"the same length on every path, or hold numbers or arrays of one shape")
    return _stacked(value, ListFacts(name, may_be_empty=not value, mixed=len(_dtypes(value)) > 1))


_ELEMENTS = (Tracer, np.ndarray, np.generic, bool, int, float, complex)


def _stacked(value: list, facts: ListFacts) -> TracedList:
    if not value:
        return TracedList(Placeholder("list"), facts)
    return TracedList(_traced(np.stack(value)), facts)


def _traced(stack):
    """A stack as a traced value, so that the staged block carries it."""
    if isinstance(stack, Tracer):
        return stack
    builder = current_builder()
    return Tracer(builder, builder.const(stack))


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
                facts = state[i].facts.but(mixed=True)
                state = (*state[:i], TracedList(state[i].stack.astype(after.stack.dtype),
                                                 facts), *state[i + 1:])
                changed = True
        if not changed:
            break
    return state


def list_comp(iterable, element, condition=None, lazy=False):
    """`[element(v) for v in iterable if condition(v)]` (a generator when `lazy`):
    a staged loop building a `TracedList` when `iterable` is one, or a traced array
    filtered by a condition (`[v for v in x if v > 0]`: its length known when the
    graph runs)."""
    from .conditionals import if_stmt
    from .loops import TracedRange, TracedZip, for_stmt
    iterable = read_if_variable(iterable)
    staged = isinstance(iterable, TracedList) or condition is not None and (
        isinstance(iterable, (TracedRange, TracedZip))
        or isinstance(iterable, Tracer) and iterable.ndim > 0)
    if not staged:   # Python's comprehension (a traced array unrolled by its items)
        values = (element(v) for v in iterable if condition is None or condition(v))
        return values if lazy else list(values)

    def body(item, out):
        if condition is None:
            return (list_append(out, element(item)),)
        return if_stmt(condition(item), lambda out: (list_append(out, element(item)),),
                       lambda out: (out,), (out,), ("comprehension",))
    may_be_empty = condition is not None or iterable.facts.may_be_empty  # none may be kept
    empty = TracedList(Placeholder("list"), ListFacts(None, may_be_empty))
    return for_stmt(iterable, None, body, (empty,), ("comprehension",))[0]


def _sum(target, start=0):
    """`sum(xs, start)`: `start` itself (a Python int, say) where `xs` is empty."""
    if is_unbound(target.stack):
        return start
    stack = target.stacked()
    if (target.facts.may_be_empty and stack.ndim != 1) or target.facts.dtypes:
        stack = target.eager_array("sum() of")  # eager: a number on the empty path
    if not target.facts.may_be_empty or stack.ndim != 1:
        return start + _in_order(stack)
    return runtime.cond(dynamic_shape(stack)[0] > 0, lambda: start + _in_order(stack),
                        lambda: start)


def _in_order(stack):
    """The elements of `stack` added one after the other, as Python's `sum` adds them
    (NumPy's `np.sum` adds pairwise, which rounds floats otherwise), in their own dtype:
    `np.int8(1) + np.int8(2)` is an int8, where `np.cumsum` would widen it to int64
    (a bool's sum is an int, as `0 + np.True_` is)."""
    dtype = None if stack.dtype == np.bool_ else stack.dtype
    return np.cumsum(stack, axis=0, dtype=dtype)[-1]


def empty_sequence_message(f) -> str:
    """What this Python's `max`/`min` says of an empty sequence (3.11 and 3.12 differ)."""
    try:
        f(())
    except ValueError as error:
        return str(error)
    raise AssertionError(f"{f.__name__}(()) did not raise")


def _extreme(reduce, builtin):
    what = f"{builtin.__name__}()"

    def rule(target):
        _numbers(target, f"{what} of")
        stack = target.nonempty(ValueError(empty_sequence_message(builtin)))
        return target.element(reduce(stack), f"{what} of")
    return rule


def _next(target, *default):
    """`next(g, default)` of a generator expression filtering a traced array (a list of
    unknown length here): its first element, else `default` (else `StopIteration`)."""
    if not default:
        return target.element(target.nonempty(StopIteration())[0], "next() of")
    if is_unbound(target.stack):
        return default[0]
    stack = target.stacked()
    first = lambda: target.element(stack[0], "next() of")  # noqa: E731
    if not target.facts.may_be_empty:
        return first()
    return runtime.cond(dynamic_shape(stack)[0] > 0, first, lambda: default[0])


def _array(target, dtype=None):
    stack = target.eager_array("np.array() of", dtype)
    return stack if dtype is None else stack.astype(dtype)


def _stack(target, axis=0):
    target.one_dtype("np.stack() of")
    return np.moveaxis(target.nonempty(ValueError("need at least one array to stack")), 0, axis)


def _concatenate(target, axis=0):
    target.one_dtype("np.concatenate() of")
    stack = target.nonempty(ValueError("need at least one array to concatenate"))
    if axis != 0 or stack.ndim < 2:
        raise ContainerStagingError("np.concatenate of a list filled in a staged loop or if is supported "
                           "along axis 0 only")
    return np.reshape(stack, (-1, *stack.shape[2:]))


_LIST_RULES = {
    np.stack: _stack,
    np.array: _array,
    np.asarray: _array,
    np.concatenate: _concatenate,
    len: lambda target: convert_weak(dynamic_shape(target.stacked())[0], python_aval(0)),
    sum: _sum,
    max: _extreme(np.max, max),
    min: _extreme(np.min, min),
    list: lambda target: target.copy(),
    sorted: lambda target: target.copy() if is_unbound(target.stack) else
    TracedList(np.sort(_numbers(target, "sorting")), target.facts),
    any: lambda target: False if is_unbound(target.stack) else np.any(target.stacked()),
    all: lambda target: True if is_unbound(target.stack) else np.all(target.stacked()),
    next: _next,
}


def list_call(function, args, kwargs=None):
    """`function(xs, ...)` for one of `LIST_FUNCTIONS`, on a `TracedList` `xs`."""
    try:
        return _LIST_RULES[function](*args, **(kwargs or {}))
    except TypeError as error:  # an argument the rule does not take
        raise ContainerStagingError(f"{getattr(function, '__name__', function)}() of a list filled in "
                           f"a staged loop takes no such arguments here ({error}); call it "
                           f"on np.stack(xs)") from None


LIST_FUNCTIONS = tuple(_LIST_RULES)


def is_traced_list(value) -> bool:
    return isinstance(value, TracedList)
