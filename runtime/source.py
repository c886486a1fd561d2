"""Finding the user's line: the innermost frame outside this project and NumPy."""
from __future__ import annotations

import os
import sys

import numpy as np

from .ir import SourceInfo

_LIBRARY_DIRS = tuple(
    os.path.dirname(os.path.abspath(path)) + os.sep
    for path in (
        os.path.dirname(__file__) + "/__init__.py",               # runtime/
        os.path.dirname(os.path.dirname(__file__)) + "/autograph/__init__.py",
        np.__file__,
    )
)
_user_file_cache: dict[str, bool] = {}


def is_user_file(filename: str) -> bool:
    """True for files that are neither this project's library code nor NumPy's."""
    known = _user_file_cache.get(filename)
    if known is None:
        known = not (filename.startswith(_LIBRARY_DIRS) or filename.startswith("<frozen")
                     or os.path.abspath(filename).startswith(_LIBRARY_DIRS))
        _user_file_cache[filename] = known
    return known


_source_maps: dict[str, dict[int, tuple]] = {}


def register_source_map(filename: str, mapping: dict) -> None:
    """Declares that lines of generated `filename` stand for (file, line, function)s."""
    _source_maps[filename] = mapping


def original_location(filename: str, lineno: int, function: str) -> SourceInfo:
    """The user's own line for a line of generated code (itself for any other file)."""
    mapping = _source_maps.get(filename)
    if mapping:
        for line in range(lineno, 0, -1):
            if line in mapping:
                return SourceInfo(*mapping[line])
    return SourceInfo(filename, lineno, function)


def user_source() -> SourceInfo | None:
    """The `SourceInfo` of the innermost user frame on the stack, in the user's own lines."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if is_user_file(code.co_filename):
            return original_location(code.co_filename, frame.f_lineno, code.co_name)
        frame = frame.f_back
    return None


def location_note(source: SourceInfo | None) -> str:
    """' at FILE:LINE in FUNC' or '' where the location is unknown."""
    return f" (at {source})" if source else ""


def note_original_location(error: BaseException) -> None:
    """Adds the user's own line to an error raised inside generated (converted) code."""
    from .errors import add_note_once
    tb, innermost = error.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in _source_maps:
            innermost = original_location(code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    if innermost is not None:
        add_note_once(error, f"raised in converted code, at {innermost}")


def user_stacklevel() -> int:
    """The `warnings.warn` stacklevel, for its caller, of the innermost user frame."""
    frame, level = sys._getframe(1), 1
    while frame is not None and not is_user_file(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level
