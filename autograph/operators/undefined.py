"""Variables Python has not bound yet: `Undefined` in, `UnboundLocalError` out.

Converted control flow passes every variable it may assign as state, bound or
not; an unbound one travels as `Undefined(name)`. Using it raises
`UnboundLocalError`, as the original code would have.

>>> x = Undefined("x")
>>> x + 1
Traceback (most recent call last):
...
UnboundLocalError: cannot access local variable 'x' where it is not associated with a value

Both classes here implement the runtime's protocols for staged control flow
(runtime/README.md, "Control flow"): `__unbound__ = True` (a loop types the
value from its body) and `__stage_like__` (a `Placeholder` facing a value in
the other branch of a staged `if` stands in as zeros of that value's type).
"""
from __future__ import annotations

from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.errors import NoneOnThisPathError
from autograph_runtime.ops.effects import assert_ as staged_assert
from autograph_runtime.ops.subgraphs import stand_in
from autograph_runtime.source import location_note, user_source

from .exceptions import refuse_if_caught


class Undefined:
    """A placeholder for the unbound variable `name`."""

    __slots__ = ("name",)
    __unbound__ = True

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"Undefined({self.name!r})"

    def error(self) -> UnboundLocalError:
        return UnboundLocalError(f"cannot access local variable {self.name!r} where it is not "
                                 f"associated with a value")  # Python's own text

    def _raise(self, *args, **kwargs):
        raise self.error()

    def __getattr__(self, attribute):
        if attribute.startswith("__"):  # protocol probes (hasattr) see a plain object
            raise AttributeError(attribute)
        raise self.error()

    __call__ = __getitem__ = __iter__ = __len__ = __bool__ = _raise
    __index__ = __int__ = __float__ = __array__ = _raise


for _op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
            "xor", "lshift", "rshift", "lt", "le", "gt", "ge", "eq", "ne"):
    setattr(Undefined, f"__{_op}__", Undefined._raise)
    if _op not in ("lt", "le", "gt", "ge", "eq", "ne"):
        setattr(Undefined, f"__r{_op}__", Undefined._raise)
for _op in ("neg", "pos", "abs", "invert"):
    setattr(Undefined, f"__{_op}__", Undefined._raise)
Undefined.__hash__ = object.__hash__
del _op


def is_undefined(value) -> bool:
    return type(value) is Undefined


class Placeholder:
    """A value that is certain to be replaced before it is read.

    Converted code starts a function's return value as one: a staged branch
    that has not returned yet carries zeros of the other branch's type in its
    place, which no path reads.
    """

    __slots__ = ("name",)
    __unbound__ = True

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"Placeholder({self.name!r})"

    def __eq__(self, other):  # any two stand for no value: a branch passes either on as is
        return type(other) is Placeholder

    __hash__ = object.__hash__

    def __stage_like__(self, other):
        """Zeros of `other`'s structure and types; itself facing another placeholder."""
        return self if type(other) is Placeholder else stand_in(other)


class ReturnedNone:
    """What converted code holds as a function's return value where a `return` (or the
    end of the function) returns None; `returned` makes it None again.

    Facing a value another branch of a staged `if` returns, it stands in as zeros
    of that value's type, and the branch fails when it runs (`NoneOnThisPathError`,
    on which a graph without effects runs the call eagerly): a graph returns one
    type on every path, and eager code returns None there.
    """

    __slots__ = ("where",)

    def __init__(self, where):
        self.where = where  # the user's `return` line

    def __repr__(self):
        return "ReturnedNone()"

    def __eq__(self, other):
        return type(other) is ReturnedNone

    __hash__ = object.__hash__

    def __stage_like__(self, other):
        if other is None or type(other) in (ReturnedNone, Placeholder):
            return self
        from autograph_runtime.ops.control_flow import diverge
        diverge(NoneOnThisPathError(
            f"the function returns None on this path{location_note(self.where)} and a "
            f"value on another, which a graph cannot do: a graph returns one type on every "
            f"path; return a value (or raise) here"), self.where)
        return stand_in(other)


def returned_none() -> ReturnedNone:
    """`return` or `return None` in a function whose returns converted code lowers."""
    return ReturnedNone(user_source())


def returned(value):
    """The value converted code returns at its end: None for `ReturnedNone`."""
    return None if type(value) is ReturnedNone else value


def is_unbound(value) -> bool:
    """An `Undefined` or a `Placeholder`: a value a loop or branch must bind first."""
    return type(value) in (Undefined, Placeholder)


def bound_or_undefined(read, name: str):
    """The value `read()` gives, or `Undefined(name)` where the variable is unbound."""
    try:
        return read()
    except NameError:
        return Undefined(name)


def ld(value):
    """`value`, or the `UnboundLocalError` Python raises for an unbound variable in it."""
    if isinstance(value, Undefined):
        raise value.error()
    if type(value) is MaybeUnbound:
        value.__ag_on_read__()
    if type(value) in (tuple, list):
        for item in value:
            ld(item)
    return value


class MaybeUnbound(Tracer):
    """A traced value bound in only one branch of a staged `if`: `defined` (a traced
    bool) says whether the branch that ran bound it. Reading it stages the check:
    the graph raises eager's `UnboundLocalError` where the other branch ran, only
    when (and where) the read runs. The other branch carries zeros of its type.
    """

    __slots__ = ("defined", "name", "_checked")

    def __init__(self, tracer, defined, name: str):
        super().__init__(tracer.builder, tracer.node)
        self.defined, self.name, self._checked = defined, name, set()

    def __ag_on_read__(self):
        builder = current_builder()
        if builder is None or id(builder) in self._checked:
            return
        self._checked.add(id(builder))
        error = Undefined(self.name).error()
        refuse_if_caught(error, "of a variable a staged branch left unbound")
        staged_assert(self.defined, error)


def refuse_in_loop(values, names) -> None:
    """`TracingError` for a `MaybeUnbound` a staged loop would carry: the loop does not
    thread its check, so a read in a later step could not raise as Python would."""
    for i, value in enumerate(values):   # `names` may be empty: a loop body's results
        if type(value) is MaybeUnbound:
            name = value.name or (names[i] if i < len(names) else "a variable")
            raise TracingError(
                f"{name!r} is bound only in one branch of an `if` on a traced value (or on "
                f"some paths of a `try` the graph runs as Python){location_note(user_source())}"
                f", and a staged loop carries it; bind it before the `if` (or the `try`)")


def rebound(value, like):
    """`value` (a branch input) marked as `like` is, where `like` is a `MaybeUnbound`."""
    if type(like) is MaybeUnbound and isinstance(value, Tracer):
        return MaybeUnbound(value, like.defined, like.name)
    return value
