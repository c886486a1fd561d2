"""`ag.run_functions_eagerly`: every graph function runs its Python function as it is.

    ag.run_functions_eagerly(True)        # from now on (or AUTOGRAPH_RUN_EAGERLY=1)
    with ag.run_functions_eagerly(True):  # for a block: the setting before it comes back
        f(x)                              # plain Python and NumPy: pdb, print, breakpoints

While it is on, calling a graph function calls the original, unconverted function
on the arguments (a method on its instance): no conversion, no tracing, no graph,
so `pdb` stops in the user's own lines and `print` prints Python values. It is the
switch of `tf.config.run_functions_eagerly` and `jax.disable_jit`.

- Inside a trace (a graph function called by one being traced) nothing changes:
  the callee is traced into the caller's graph, as always.
- `ag.grad` and `ag.value_and_grad` still trace the function they differentiate
  (a gradient needs its graph), so they work, and give the same values.
- `ag.Variable`s are read and assigned eagerly, as in any NumPy code.
"""
from __future__ import annotations

import os

from autograph_runtime.call_modes import modes

_TRUE = ("1", "true", "yes", "on")


class _Setting:
    """`on`: whether graph functions run eagerly; while it is, it counts as a mode
    entered (`autograph_runtime.call_modes`), so calls read it."""

    def __init__(self, on: bool):
        self._on = False
        self.on = on

    @property
    def on(self) -> bool:
        return self._on

    @on.setter
    def on(self, flag: bool) -> None:
        flag = bool(flag)
        if flag and not self._on:
            modes.enter()
        elif self._on and not flag:
            modes.leave()
        self._on = flag


setting = _Setting(os.environ.get("AUTOGRAPH_RUN_EAGERLY", "").strip().lower() in _TRUE)


class run_functions_eagerly:  # noqa: N801 - a function to its callers, as in TF
    """Sets whether graph functions run as plain Python (see the module docstring);
    used as a context manager, restores the setting it found when the block ends."""

    def __init__(self, flag: bool = True):
        self._before = setting.on
        setting.on = bool(flag)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        setting.on = self._before
        return False

    def __repr__(self):
        return f"ag.run_functions_eagerly({setting.on})"


def functions_run_eagerly() -> bool:
    """Whether graph functions run as plain Python now."""
    return setting.on
