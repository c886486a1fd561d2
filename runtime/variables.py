"""`Variable`: mutable state, read and written in program order by graphs.

A variable holds one array whose shape and dtype are fixed when it is made.
Eagerly it behaves like that array (operators, NumPy functions, indexing and
array methods read it) and `assign`, `assign_add`, `assign_sub` replace it.
While a graph is traced, the same operations stage `read_variable` and
`assign_variable` equations on the variable's resource, a graph input that
the graph function binds, weakly, to the variable when it runs.

>>> v = Variable(np.zeros(3, np.float32), name="v")
>>> v.assign_add(np.arange(3))
array([0., 1., 2.], dtype=float32)
>>> v * 2
array([0., 2., 4.], dtype=float32)
>>> v
<Variable 'v' shape=(3,) dtype=float32 value=[0. 1. 2.]>

The stored array is read-only and replaced, never changed, by each write, so
a value read earlier keeps its contents. Each write is atomic under threads,
eagerly and in a graph: it holds the variable's lock while it reads (for
`assign_add`, `assign_sub`), computes and stores, so concurrent updates are
never lost; a read takes the stored array as one reference, without the lock,
so it sees one whole value.
"""
from __future__ import annotations

import contextlib
import operator
import threading

import numpy as np

from .abstract import ResourceType
from .dispatch import read_operands
from .errors import TracingError
from .ops import state
from .source import location_note, user_source
from .tracer import current_builder
from .variable_scope import concrete_initial_value
from .variable_text import variable_text


# Operands whose arithmetic runs no user code (Python and NumPy numbers, arrays).
_PLAIN_OPERANDS = (bool, int, float, complex, np.generic, np.ndarray)


class Variable:
    """Mutable state: `Variable(initial_value, dtype=None, name=None, trainable=True)`."""

    def __init__(self, initial_value, dtype=None, name: str | None = None,
                 trainable: bool = True):
        value = concrete_initial_value(initial_value)
        get = getattr(value, "get", None)  # a CuPy array: kept on the host until a graph
        if get is not None and not isinstance(value, np.ndarray):  # runs on the GPU
            value = get()
        array = np.array(value, dtype=dtype)
        if array.dtype == object:
            raise TypeError(f"a Variable holds a numeric array, not {type(initial_value).__name__}")
        self._type = ResourceType(array.shape, array.dtype)
        self._value = _frozen(array)
        self._lock = threading.Lock()  # held by each write, and by a move to another device
        self.name = "Variable" if name is None else str(name)
        self.trainable = bool(trainable)

    # -- what it is --------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._type.shape

    @property
    def dtype(self) -> np.dtype:
        return self._type.dtype

    @property
    def ndim(self) -> int:
        return self._type.ndim

    @property
    def resource_type(self) -> ResourceType:
        """The type of this variable's resource in a graph (`ref f32[3]`)."""
        return self._type

    def __repr__(self):
        return variable_text(self.name, self.value_on(np))

    # -- reads -------------------------------------------------------------
    def read_value(self):
        """The current value: a new array eagerly, a `read_variable` in a graph."""
        if current_builder() is not None:
            return state.read(self)
        return self.value_on(np).copy()

    def numpy(self) -> np.ndarray:
        """A copy of the current value (eager only: in a graph use `read_value()`)."""
        if current_builder() is not None:
            raise TracingError(f"Variable {self.name!r}.numpy() needs a concrete value, but "
                               f"it is called while tracing{location_note(user_source())}; "
                               f"use read_value(), which is staged")
        return self.value_on(np).copy()

    def _read(self):
        """The value as an operand: the stored (read-only) array, or a staged read."""
        if current_builder() is not None:
            return state.read(self)
        return self.value_on(np)

    __ag_read__ = _read  # the read protocol: where an operand is needed, read the variable

    # -- writes ------------------------------------------------------------
    def assign(self, value):
        """Stores `value` (broadcast and cast to the variable); returns the new value."""
        return self._write("assign", value)

    def assign_add(self, delta):
        """Stores `value + delta`; returns the new value."""
        return self._write("add", delta)

    def assign_sub(self, delta):
        """Stores `value - delta`; returns the new value."""
        return self._write("sub", delta)

    def _write(self, mode, value):
        if current_builder() is not None:
            return state.assign(self, value, mode)
        if isinstance(value, Variable):
            value = value.value_on(np)
        return self.store(mode, value, np)

    # -- the storage, as kernels use it -------------------------------------
    def value_on(self, xp):
        """The stored array, moved to the array module `xp` (NumPy or CuPy) if needed."""
        value = self._value
        if type(value) is np.ndarray if xp is np else isinstance(value, xp.ndarray):
            return value  # the fast path: one reference read, no lock
        with self._lock:
            return self._moved(xp)

    def store(self, mode: str, value, xp=np):
        """Replaces the stored array by `value` ("assign") or the current one +/- `value`.

        Atomic: two threads adding 1 at once add 2. "assign" checks and casts
        `value` before it takes the lock; "add" and "sub" hold it from the read
        of the current value to the store of the new one. The common case (no
        journal open, the array already on `xp`) is inline, which pays for the lock.
        """
        if mode == "assign":
            new = self._checked(value, xp, fresh=False)
            with self._lock:
                if _journals.stack:
                    self._journal()
                self._value = new
            return new
        if not isinstance(value, _PLAIN_OPERANDS) and not isinstance(value, xp.ndarray):
            value = xp.asarray(value)  # an object's __array__ may write this variable itself
        with self._lock:                # so it runs before the lock is taken
            current = self._value
            if xp is not np or type(current) is not np.ndarray:
                current = self._moved(xp)
            new = self._checked(current + value if mode == "add" else current - value, xp,
                                fresh=True)
            if _journals.stack:
                self._journal()
            self._value = new
        return new

    def __getstate__(self):
        """Copies and pickles hold the value, not the lock (each Variable has its own)."""
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _moved(self, xp):
        """`value_on(xp)` with the lock held: a move to another device replaces the array."""
        value = self._value
        if xp is np:
            if type(value) is not np.ndarray:
                value = self._value = _frozen(value.get())
        elif not isinstance(value, xp.ndarray):
            value = self._value = xp.asarray(value)
        return value

    def _checked(self, value, xp, fresh: bool):
        """`value` broadcast and cast to the variable's shape and dtype, as a new array."""
        value = xp.asarray(value)
        if not np.can_cast(value.dtype, self.dtype, "same_kind"):
            raise TypeError(f"cannot store a {value.dtype} value in Variable {self.name!r} "
                            f"of dtype {self.dtype} (NumPy's same_kind casting rule)")
        if value.shape != self.shape:
            try:
                value = xp.broadcast_to(value, self.shape)
            except ValueError:
                raise ValueError(f"cannot store a value of shape {value.shape} in Variable "
                                 f"{self.name!r} of shape {self.shape}") from None
            fresh = False
        new = value.astype(self.dtype, copy=not fresh)
        return _frozen(new) if xp is np else new

    def _journal(self):
        """Notes the value about to be replaced in each open `recording_writes` journal."""
        for journal in _journals.stack:
            journal.setdefault(id(self), (self, self._value))

    # -- Python protocols ------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        if current_builder() is not None:
            raise TracingError(
                f"np.asarray(Variable {self.name!r}) while tracing would freeze its current "
                f"value into the graph{location_note(user_source())}; use it directly in "
                f"NumPy calls, or v.read_value()")
        value = self.value_on(np)
        if dtype is not None and np.dtype(dtype) != value.dtype:
            return value.astype(dtype)
        return value.copy() if copy else value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if any(isinstance(x, Variable) for x in kwargs.get("out", ()) or ()):
            raise TypeError("a Variable cannot be an out= argument; use assign, "
                            "assign_add or assign_sub")
        return getattr(ufunc, method)(*read_operands(inputs), **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return func(*read_operands(args), **dict(zip(kwargs, read_operands(kwargs.values()))))

    def __getattr__(self, name):
        # ndarray methods and properties (`v.sum()`, `v.T`, `v.size`) read the value
        if name.startswith("_") or not hasattr(np.ndarray, name):
            raise AttributeError(f"'Variable' object has no attribute {name!r}")
        return getattr(self._read(), name)

    def __getitem__(self, index):
        return self._read()[index]

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d Variable")
        return self.shape[0]

    def __iter__(self):
        return iter(self._read())

    def __bool__(self):
        return bool(self._read())

    def __float__(self):
        return float(self._read())

    def __int__(self):
        return int(self._read())

    def __index__(self):
        return operator.index(self._read())

    def __complex__(self):
        return complex(self._read())

    def __setitem__(self, index, value):
        raise TypeError(f"Variable {self.name!r} does not support item assignment; build the "
                        f"new value (np.where, np.concatenate) and assign() it")

    __hash__ = object.__hash__  # identity, though == compares values as arrays do


def _in_place(name):
    def refuse(self, other):
        raise TypeError(
            f"`{name}` on Variable {self.name!r}: use assign, assign_add or assign_sub to "
            f"change a variable (`v {name} x` would otherwise rebind the name to an array)")
    return refuse


def _binary(op):
    return lambda self, other: op(self._read(), other)


def _reflected(op):
    return lambda self, other: op(other, self._read())


def _unary(op):
    return lambda self: op(self._read())


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and",
              "or", "xor", "lshift", "rshift"):
    _op = getattr(operator, _name + "_") if _name in ("and", "or") else getattr(operator, _name)
    setattr(Variable, f"__{_name}__", _binary(_op))
    setattr(Variable, f"__r{_name}__", _reflected(_op))
    symbol = {"add": "+=", "sub": "-=", "mul": "*=", "truediv": "/=", "floordiv": "//=",
              "mod": "%=", "pow": "**=", "matmul": "@=", "and": "&=", "or": "|=", "xor": "^=",
              "lshift": "<<=", "rshift": ">>="}[_name]
    setattr(Variable, f"__i{_name}__", _in_place(symbol))
for _name in ("lt", "le", "gt", "ge", "eq", "ne"):
    setattr(Variable, f"__{_name}__", _binary(getattr(operator, _name)))
for _name in ("neg", "pos", "abs", "invert"):
    setattr(Variable, f"__{_name}__", _unary(getattr(operator, _name)))
Variable.__divmod__ = _binary(divmod)
Variable.__rdivmod__ = _reflected(divmod)


class _Journals(threading.local):
    def __init__(self):
        self.stack: list[dict] = []


_journals = _Journals()


@contextlib.contextmanager
def recording_writes(undo: bool = False):
    """Records the variables a block writes, each with the value it had before.

    Yields a dict filled as the block runs: id(variable) -> (variable, value
    before). With `undo`, each gets that value back afterwards (to run one
    computation twice from the same state: an eager oracle, then its graph).
    Variables the block created are left as they are.
    """
    journal: dict = {}
    _journals.stack.append(journal)
    try:
        yield journal
    finally:
        _journals.stack.remove(journal)
        if undo:
            for variable, value in journal.values():
                with variable._lock:
                    variable._value = value


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array
