"""Short tracebacks: an error raised to the user shows the user's frames, not ours.

An error escaping a graph function's call (or `get_concrete_function`) loses the
frames of `autograph` and `runtime` themselves (tracing, dispatch, kernels'
wrappers): what is left are the user's own frames, the frames of converted code
(`<autograph f (file.py:3) #0>`) and of a graph's generated code (`<graph f #0>`),
and those of other libraries (NumPy's). One note says so:

    ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, ...
    raised in converted code, at model.py:4 in helper
    (autograph hid its own frames from this traceback; AUTOGRAPH_TRACEBACK_FILTERING=off
    or ag.set_traceback_filtering(False) shows them)

This is JAX's traceback filtering. The error itself, its type, message and notes
are unchanged; chained errors (`__cause__`, `__context__`) are shortened too.
"""
from __future__ import annotations

import os
import types

import autograph_runtime as runtime
from autograph_runtime.errors import add_note_once
from autograph_runtime.source import is_user_file

NOTE = ("(autograph hid its own frames from this traceback; "
        "AUTOGRAPH_TRACEBACK_FILTERING=off or ag.set_traceback_filtering(False) shows them)")
_PACKAGES = tuple(os.path.dirname(os.path.abspath(p)) + os.sep
                  for p in (__file__, runtime.__file__))


class _Settings:
    on = os.environ.get("AUTOGRAPH_TRACEBACK_FILTERING", "").strip().lower() not in (
        "off", "0", "false", "no")


settings = _Settings()


def set_traceback_filtering(on: bool) -> None:
    """Whether errors raised to the user hide autograph's own frames (on by default)."""
    settings.on = bool(on)


def hide_internal_frames(error: BaseException) -> None:
    """Drops autograph's and runtime's frames from `error`'s traceback (and its chain's)."""
    seen = set()
    while error is not None and id(error) not in seen and settings.on:
        seen.add(id(error))
        _shorten(error)
        error = error.__cause__ or error.__context__


def _shorten(error: BaseException) -> None:
    frames, tb = [], error.__traceback__
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    kept = [t for t in frames if not t.tb_frame.f_code.co_filename.startswith(_PACKAGES)]
    if len(kept) == len(frames):
        return
    shortened = None   # no frame kept (a ConversionError): the user's frames come above
    for t in reversed(kept):
        shortened = types.TracebackType(shortened, t.tb_frame, t.tb_lasti, t.tb_lineno)
    error.__traceback__ = shortened
    add_note_once(error, NOTE)


def raised_inside(error: BaseException) -> bool:
    """Whether `error` was raised in autograph's or runtime's own code: of the frames of its
    traceback that are the project's or the user's, the innermost is the project's (an
    error a NumPy function raised counts for whoever called it)."""
    inside, tb = False, error.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.startswith(_PACKAGES):
            inside = True
        elif is_user_file(filename):
            inside = False
        tb = tb.tb_next
    return inside
