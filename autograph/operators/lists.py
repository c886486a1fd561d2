"""Lists that grow inside staged loops.

`xs.append(v)` is converted to `xs = ag__.list_append(xs, v)`. On a Python list
that appends in place, as Python does. When a loop is staged, each Python list
in its state becomes a `TracedList`: one traced array stacking the elements
along a first axis of unknown length (what `tf.function` needs a `TensorArray`
for). `np.stack`, `np.array`, `len` and indexing read it.
"""
from __future__ import annotations

import numpy as np

from runtime import TracingError
from runtime.ops.introspection import dynamic_shape

from .undefined import Placeholder, is_unbound


class TracedList:
    """A list of same-typed arrays, stacked: `stack[i]` is element i."""

    def __init__(self, stack):
        self.stack = stack  # a traced array, or a Placeholder while still empty

    def __tree_flatten__(self):
        return [self.stack], None

    @classmethod
    def __tree_unflatten__(cls, aux, children):
        return cls(children[0])

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
        if item.dtype != self.stack.dtype:
            item = item.astype(self.stack.dtype)
        return TracedList(np.concatenate([self.stack, item]))

    def sort(self):
        """`xs.sort()` on a list of numbers filled in a staged loop: sorts the stack."""
        stack = self.stacked()
        if stack.ndim != 1:
            raise TracingError("sorting a list of arrays filled in a staged loop is not "
                               "supported; sort an array made with np.stack(xs) instead")
        self.stack = np.sort(stack)

    def stacked(self):
        if is_unbound(self.stack):
            raise TracingError("a list filled in a staged loop was used before anything "
                               "was appended to it")
        return self.stack

    def __len__(self):
        raise TracingError("len() of a list filled in a staged loop is a traced value; "
                           "use ag.shape(np.stack(xs))[0]")

    def __getitem__(self, index):
        return self.stacked()[index]

    def __repr__(self):
        return f"TracedList({self.stack!r})"


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
        return TracedList(np.stack(value))
    return type(state)(convert(v) for v in state)


def list_call(function, args):
    """`np.stack(xs)`, `np.array(xs)`, `np.asarray(xs)`, `len(xs)` on a `TracedList`."""
    target = args[0]
    if function in (np.stack, np.array, np.asarray):
        return target.stacked()
    if function is len:
        return dynamic_shape(target.stacked())[0]
    return None


LIST_FUNCTIONS = (np.stack, np.array, np.asarray, len)


def is_traced_list(value) -> bool:
    return isinstance(value, TracedList)


