"""`while` and `for` loops: Python loops on concrete values, staged loops on traced ones.

Converted loops pass their state explicitly: `state = while_stmt(test, body,
state, names)`, where `test(*state)` and `body(*state)` are the loop's test
and body. `for` loops over `range` with traced bounds, over traced arrays
(their first axis; `x.flat`: `np.ravel(x)`) and over `enumerate`/`zip` of
traced arrays are staged; over anything else they run as Python (unrolled
into the graph when traced), except that the trips of a Python `range` left
once a `break`/`return` turns traced, or after a trip that staged a branch when
more than 100 remain, are staged as one loop (`_staged_rest`).
"""
from __future__ import annotations

import warnings

import numpy as np

import autograph_runtime as runtime
from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.ops.control_flow import cond_p
from autograph_runtime.ops.effects import assert_
from autograph_runtime.ops.flat import FlatIter
from autograph_runtime.ops.python_numbers import weak_constant
from autograph_runtime.source import location_note, user_source, user_stacklevel
from autograph_runtime.tracer import read_if_variable

from .. import trace_log
from .composite import staged_block
from .outside_iterators import refuse_advancing
from .in_place import staged_writing
from .lists import TracedList, settle_list_types, stage_lists
from .loop_islands import staged_or_island
from .staging import staging
from .undefined import is_undefined, refuse_in_loop

UNROLL_WARNING_AFTER = 100
# trips of an iterator without a length (`itertools.count()`, a generator) guarded by a
# traced exit, past which the loop is refused: the iterator may never end while tracing
GUARDED_TRIPS_UNSIZED = 1000
UNROLL_LOG_EVERY = 1000   # trips of a Python loop while tracing between two log records


class UnrolledLoopWarning(UserWarning):
    """A Python loop ran many times while tracing, so the graph holds many copies of it."""


def while_stmt(test, body, state: tuple, names: tuple):
    """`while test(*state): state = body(*state)`, staged once the test is traced (run
    as Python when the graph runs where staging it is refused for its containers)."""
    def as_python(_, state):
        while test(*state):
            state = body(*state)
        return state
    return staged_or_island(lambda: _while_stmt(test, body, state, names), as_python,
                            (test, body), None, state, names)


def _while_stmt(test, body, state: tuple, names: tuple):
    undefined = [i for i, value in enumerate(state) if is_undefined(value)]
    if not undefined:
        return _while(lambda s: test(*s), _staged_body(body, names), tuple(state), names)
    # Variables first bound in the loop: count the steps so a staged loop that
    # runs zero times raises the UnboundLocalError the Python loop would have.
    final = _while(lambda s: test(*s[1:]), _counting(body, names), (0, *state),
                   ("steps", *names))
    steps, final = final[0], final[1:]
    if isinstance(steps, Tracer):
        for i in undefined:
            if isinstance(final[i], Tracer):
                assert_(steps > 0, state[i].error())
    return final


def _while(cond_fn, body_fn, state, names):
    """Python steps while `cond_fn(state)` is concrete; once it is traced, the rest of
    the loop is staged as one `runtime.while_loop` (its lists become `TracedList`s)."""
    while True:
        builder = current_builder()
        mark = len(builder.eqns) if builder is not None else 0
        pred = read_if_variable(cond_fn(state))
        if isinstance(pred, Tracer):
            del builder.eqns[mark:]  # the probe is traced again as the loop's condition
            refuse_in_loop(state, names)
            return staged_block(state, names, lambda block, packed: staged_writing(
                lambda s: runtime.while_loop(block.step(cond_fn, result_is_state=False),
                                             block.step(body_fn), s, names=block.names),
                settle_list_types(packed, block.step(body_fn)), block.names),
                loop=True, stack_lists=stage_lists)  # dicts, lists and objects it writes
        if not pred:
            return state
        state = body_fn(state)


def _staged_body(body, names):
    def run(state):
        with staging(names):
            out = body(*state)
        refuse_in_loop(out, ())
        return out
    return run


def _counting(body, names):
    def run(state):
        with staging(names):
            out = (state[0] + 1, *body(*state[1:]))
        refuse_in_loop(out, ())
        return out
    return run


class TracedRange:
    """`range(start, stop, step)` with a traced bound: iterated by a staged loop."""

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step

    def length(self):
        span = self.stop - self.start
        return np.maximum((span + self.step - np.sign(self.step)) // self.step, 0)

    def item(self, index):
        return self.start + index * self.step


class TracedZip:
    """`zip`/`enumerate` over sequences at least one of which is traced."""

    def __init__(self, sequences, enumerate_start=None):
        self.sequences = sequences
        self.enumerate_start = enumerate_start

    def length(self):
        lengths = [_length(s) for s in self.sequences]
        result = lengths[0]
        for other in lengths[1:]:
            result = np.minimum(result, other)
        return result

    def item(self, index):
        items = tuple(_item(s, index) for s in self.sequences)
        if self.enumerate_start is not None:
            return (self.enumerate_start + index, items[0])
        return items


def _length(sequence):
    if isinstance(sequence, (TracedRange, TracedZip)):
        return sequence.length()
    if isinstance(sequence, Tracer):
        return len(sequence) if sequence.shape[0] is not None else runtime.dynamic_shape(sequence)[0]
    return len(sequence)


def _item(sequence, index):
    if isinstance(sequence, (TracedRange, TracedZip)):
        return sequence.item(index)
    if isinstance(sequence, Tracer):
        return sequence[index]
    return np.take(np.asarray(sequence), index, axis=0)


def range_(*args):
    """`range(...)`, or a `TracedRange` when a bound is traced."""
    args = tuple(map(read_if_variable, args))
    if any(isinstance(a, Tracer) for a in args):
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        return TracedRange(start, stop, step)
    return range(*args)


def _sequence(value):
    """`value` to loop over: a list filled in a staged loop is its stack, `x.flat` of a
    traced x is `np.ravel(x)`."""
    value = read_if_variable(value)
    if isinstance(value, FlatIter):
        return np.ravel(value.base)
    return value.stacked() if isinstance(value, TracedList) else value


def enumerate_(sequence, start=0):
    refuse_advancing(sequence, "enumerate()")
    sequence = _sequence(sequence)
    if isinstance(sequence, (Tracer, TracedRange, TracedZip)):
        return TracedZip([sequence], enumerate_start=start)
    return enumerate(sequence, start)


def zip_(*sequences):
    for sequence in sequences:
        refuse_advancing(sequence, "zip()")
    sequences = tuple(map(_sequence, sequences))
    if any(isinstance(s, (Tracer, TracedRange, TracedZip)) for s in sequences):
        return TracedZip(list(sequences))
    return zip(*sequences)


def for_stmt(iterable, extra_test, body, state: tuple, names: tuple):
    """`for item in iterable: state = body(item, *state)`, while `extra_test(*state)`.

    `extra_test` (or None) is how converted `break` and `return` end the loop. Where
    staging it is refused for its containers, it runs as Python when the graph runs.
    """
    refuse_advancing(iterable, "a `for` loop")
    start = 0
    if isinstance(read_if_variable(iterable), FlatIter):   # `x.flat`: a long one stays a loop
        shape = read_if_variable(iterable).base.aval.shape
        long = None in shape or int(np.prod(shape)) > UNROLL_WARNING_AFTER
        start = weak_constant(0) if long else 0
    iterable = _sequence(iterable)
    if isinstance(iterable, Tracer) and iterable.ndim == 0:
        raise TypeError("iteration over a 0-d array")   # NumPy's error

    def as_python(items, state):
        for item in items:
            if extra_test is not None and not extra_test(*state):
                break
            state = body(item, *state)
        return state

    def stage():
        if isinstance(iterable, (Tracer, TracedRange, TracedZip)):
            return _staged_for(iterable, extra_test, body, state, names, start)
        return _python_for(iterable, extra_test, body, state, names)
    return staged_or_island(stage, as_python, (extra_test, body), iterable, state, names)


def _staged_for(iterable, extra_test, body, state, names, start=0):
    """The loop over `iterable`'s items by index from `start` (a traced one: staged even
    where the length is known)."""
    if isinstance(iterable, TracedRange) and type(iterable.step) is int:
        return _staged_range(iterable, extra_test, body, state, names)
    length = _length(iterable)

    def test(index, *inner):
        more = index < length
        if extra_test is None:
            return more
        from .logical import and_
        return and_(lambda: more, lambda: extra_test(*inner))

    def step(index, *inner):
        return (index + 1, *body(_item(iterable, index), *inner))
    return while_stmt(test, step, (start, *state), ("index", *names))[1:]


def _staged_range(bounds, extra_test, body, state, names):
    """`for i in range(start, stop, step)` with a Python step: the loop carries i itself."""
    def test(value, *inner):
        more = value < bounds.stop if bounds.step > 0 else value > bounds.stop
        if extra_test is None:
            return more
        from .logical import and_
        return and_(lambda: more, lambda: extra_test(*inner))

    def step(value, *inner):
        return (value + bounds.step, *body(value, *inner))
    return while_stmt(test, step, (bounds.start, *state), ("range_value", *names))[1:]


def _python_for(iterable, extra_test, body, state, names):
    count, stageable = 0, True
    for item in iterable:
        if extra_test is not None:
            builder = current_builder()
            mark = len(builder.eqns) if builder is not None else 0
            go_on = read_if_variable(extra_test(*state))
            if isinstance(go_on, Tracer) and stageable:  # a traced `break`/`return`
                staged = _staged_rest(iterable, count, extra_test, body, state, names, mark)
                if staged is not None:
                    return staged
                stageable = False
                go_on = read_if_variable(extra_test(*state))  # its equations were dropped
            if isinstance(go_on, Tracer):  # each remaining trip guarded by a cond
                if count >= GUARDED_TRIPS_UNSIZED and not hasattr(iterable, "__len__"):
                    raise TracingError(
                        f"a Python loop{location_note(user_source())} over an iterator "
                        f"without a length ({type(iterable).__name__}) leaves by a traced "
                        f"`break` or `return`: tracing stopped after {count} trips, which "
                        f"it cannot know to be the last; loop over range() of a bound, or "
                        f"write a while loop")
                from .conditionals import if_stmt
                state = if_stmt(go_on, lambda *s, item=item: body(item, *s),
                                lambda *s: s, state, ("",) * len(state))
                count += 1
                continue
            if not go_on:
                break
        builder = current_builder()
        mark = len(builder.eqns) if builder is not None else 0
        try:
            state = body(item, *state)
        except TracingError:
            # e.g. a list in the state appended under an `if` on a traced value: its
            # length is traced, so this trip and the rest are staged, the list stacked
            if not (stageable and any(type(v) is list for v in state)):
                raise
            staged = _staged_rest(iterable, count, extra_test, body, state, names, mark)
            if staged is None:
                raise
            return staged
        count += 1
        if count % UNROLL_LOG_EVERY == 0 and builder is not None:
            trace_log.unrolling(location_note(user_source()), count)
        if stageable and _long_and_branching(iterable, count, builder, mark):
            staged = _staged_rest(iterable, count, extra_test, body, state, names,
                                  len(builder.eqns))
            if staged is not None:
                return staged
            stageable = False
    if count > UNROLL_WARNING_AFTER and current_builder() is not None:
        warnings.warn(f"a Python loop{location_note(user_source())} ran {count} times while "
                      f"tracing, so the graph holds {count} copies of its body; loop over "
                      f"range() of a traced value to stage it as one loop instead",
                      UnrolledLoopWarning, stacklevel=user_stacklevel())
    return state


def _staged_rest(iterable, done, extra_test, body, state, names, mark):
    """The trips of a Python `range` (or list of same-typed arrays) left after `done`
    of them, staged as one loop now that the loop's exit is traced: its trip count
    is known, its exit dynamic. None (and nothing staged) where the body cannot run
    on a traced item; the caller then guards each remaining trip with a cond."""
    builder = current_builder()
    del builder.eqns[mark:]  # what the probe of the exit (or a failed trip) traced
    rest = _remaining(iterable, done)
    if rest is None:
        return None
    try:
        result = _staged_for(rest, extra_test, body, state, names)
    except TracingError:  # e.g. the body indexes a Python list with the item
        del builder.eqns[mark:]
        return None
    return result


def _long_and_branching(iterable, done, builder, mark) -> bool:
    """Whether the trips of a Python `range` left after `done` are better staged as
    one loop: many remain, and the last trip staged a branch (a `continue` or an
    `if` on a traced value), so each unrolled trip would add a cond to the graph."""
    return (builder is not None and type(iterable) is range
            and len(iterable) - done > UNROLL_WARNING_AFTER
            and any(eqn.primitive is cond_p for eqn in builder.eqns[mark:]))


def _remaining(iterable, done):
    """What is left of `iterable` after `done` items, as something `_staged_for` takes."""
    if type(iterable) is range:
        rest = iterable[done:]
        # a traced start, so that the loop's test is traced; a Python int, as range gives
        return TracedRange(weak_constant(rest.start), rest.stop, rest.step)
    if type(iterable) in (list, tuple):
        rest = [read_if_variable(x) for x in iterable[done:]]
        if len(rest) > 1 and all(isinstance(x, (Tracer, np.ndarray)) for x in rest) \
                and len({(x.shape, np.dtype(x.dtype)) for x in rest}) == 1 \
                and any(isinstance(x, Tracer) for x in rest):
            return np.stack(rest)
    return None
