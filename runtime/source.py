"""Finding the user's line: the innermost frame outside the libraries.

`is_library_file` is the one predicate: NumPy, the standard library,
installed packages, this package and any folder registered with
`register_library_dir` are library code, and so is generated graph code
(`<graph ...>`). Every other file is the user's. A converter that generates
code registers a *location resolver*, which maps a (filename, line, function)
of its generated code back to the user's `SourceInfo`; `user_source` and
`note_original_location` ask the resolvers, so errors name the user's lines.
"""
from __future__ import annotations

import os
import sys
import sysconfig

import numpy as np

from .errors import add_note_once
from .ir import SourceInfo


def _folder(path: str) -> str:
    return os.path.realpath(path) + os.sep


_library_dirs: set[str] = {_folder(p) for p in (
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"],
    sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
    os.path.dirname(np.__file__),
    os.path.dirname(os.path.abspath(__file__)),                     # runtime/
)}
_library_prefixes = tuple(_library_dirs)
_library_file_cache: dict[str, bool] = {}
_resolvers: list = []


_front_prefixes: tuple = ()   # registered folders: a front end calling for the user


def register_library_dir(path: str) -> None:
    """Declares the files under folder `path` library code (never the user's line): a
    front end (autograph) whose calls stand for the user's (`called_by_user`)."""
    global _library_prefixes, _front_prefixes
    _library_dirs.add(_folder(path))
    _library_prefixes = tuple(_library_dirs)
    _front_prefixes += (_folder(path),)
    _library_file_cache.clear()


def called_by_user(depth: int) -> bool:
    """Whether the frame `depth` levels above the caller, past a registered front end's
    frames (autograph's `converted_call`), is the user's code, not NumPy's or the
    runtime's own (which build ops from NumPy calls on traced values)."""
    frame = sys._getframe(depth + 1)
    while frame is not None and frame.f_code.co_filename.startswith(_front_prefixes):
        frame = frame.f_back
    return frame is not None and is_user_file(frame.f_code.co_filename)


def is_library_file(filename: str) -> bool:
    """True for NumPy, the standard library, installed packages, registered folders,
    frozen modules and generated graph code (`<graph ...>`)."""
    known = _library_file_cache.get(filename)
    if known is None:
        if filename.startswith("<"):
            known = filename.startswith(("<frozen", "<graph"))
        else:
            known = (filename.startswith(_library_prefixes)
                     or os.path.realpath(filename).startswith(_library_prefixes))
        _library_file_cache[filename] = known
    return known


def is_user_file(filename: str) -> bool:
    """True for the user's own code (generated converted code included)."""
    return not is_library_file(filename)


def register_location_resolver(resolver) -> None:
    """Adds `resolver(filename, lineno, function) -> (filename, lineno, function) | None`.

    It answers for lines of code it generated (the user's line they stand for)
    and None for any other file.
    """
    if resolver not in _resolvers:
        _resolvers.append(resolver)


def _resolved(filename: str, lineno: int, function: str) -> SourceInfo | None:
    for resolver in _resolvers:
        location = resolver(filename, lineno, function)
        if location is not None:
            return SourceInfo(*location)
    return None


def original_location(filename: str, lineno: int, function: str) -> SourceInfo:
    """The user's own line for a line of generated code (itself for any other file)."""
    return _resolved(filename, lineno, function) or SourceInfo(filename, lineno, function)


def user_source() -> SourceInfo | None:
    """The `SourceInfo` of the innermost user frame on the stack, in the user's own lines."""
    frame = sys._getframe(1)
    while frame is not None:   # once per equation: `is_library_file` called directly
        code = frame.f_code
        if not is_library_file(code.co_filename):
            return original_location(code.co_filename, frame.f_lineno, code.co_name)
        frame = frame.f_back
    return None


def user_frame() -> tuple[SourceInfo | None, bool]:
    """(`user_source()`, whether that frame is generated code a resolver maps back: code
    a converter converted)."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if is_user_file(code.co_filename):
            resolved = _resolved(code.co_filename, frame.f_lineno, code.co_name)
            if resolved is not None:
                return resolved, True
            return SourceInfo(code.co_filename, frame.f_lineno, code.co_name), False
        frame = frame.f_back
    return None, False


def numpy_caller() -> str | None:
    """`np.NAME` where the innermost user frame called NumPy's function NAME, which is
    running now (it called its caller's caller), else None."""
    frame, inner = sys._getframe(1), None
    while frame is not None and not is_user_file(frame.f_code.co_filename):
        frame, inner = frame.f_back, frame
    if inner is None or not str(inner.f_globals.get("__name__", "")).startswith("numpy"):
        return None
    return f"np.{inner.f_code.co_name}"


def location_note(source: SourceInfo | None) -> str:
    """' at FILE:LINE in FUNC' or '' where the location is unknown."""
    return f" (at {source})" if source else ""


def note_original_location(error: BaseException) -> None:
    """Adds the user's own line to an error raised inside generated (converted) code."""
    tb, innermost = error.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        location = _resolved(code.co_filename, tb.tb_lineno, code.co_name)
        if location is not None:
            innermost = location
        tb = tb.tb_next
    said = f"(at {innermost})"
    if innermost is not None and said not in str(error) and not any(
            note.endswith(said) for note in getattr(error, "__notes__", ())):
        add_note_once(error, f"raised in converted code, at {innermost}")   # not said yet


def user_stacklevel() -> int:
    """The `warnings.warn` stacklevel, for its caller, of the innermost user frame."""
    frame, level = sys._getframe(1), 1
    while frame is not None and not is_user_file(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level
