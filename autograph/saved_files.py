"""The folder format shared by `ag.save` and `ag.Checkpoint`: atomic, checked, versioned.

A folder holds data files and, written last, `manifest.json`: the format's
name and version and each file's size and SHA-256. `write_folder` writes into
a temporary folder beside the target and renames it into place, so an
interrupted save leaves either the old folder or none, never a part; and
`read_folder` checks the manifest before anything is parsed, so a missing,
truncated or corrupted file is reported by name.

Two rules keep a save from touching what it did not write, and a load from
reading it:

- a save replaces only an empty folder or an earlier save: a folder whose
  manifest names one of `FORMATS` with an integer version, and which holds
  nothing but that manifest and the regular files it lists; anything else
  (a web app's `manifest.json` beside its `index.html`) is refused with
  `FileExistsError`, and nothing is changed;
- a load reads only the manifest's files, each a plain name inside the folder
  (no `/`, no `..`, no link, no device or pipe: a regular file), of the size
  the manifest gives (checked before reading), and only the names its format
  expects; every malformed entry is a `LoadError` naming the file.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
import string
import tempfile
import zipfile

import numpy as np

from autograph_runtime.errors import AutographError
from autograph_runtime.verify import VerificationError

MANIFEST = "manifest.json"
# The formats this project writes: only a folder holding one of them is an earlier save.
FORMATS = ("autograph.saved_function", "autograph.checkpoint")
MAX_MANIFEST_BYTES = 1 << 20   # a manifest lists a few files; a bigger one is not ours


class LoadError(AutographError):
    """A saved folder cannot be read: missing, incomplete, corrupted, or of a newer version."""


def write_folder(path, format_name: str, version: int, files: dict[str, bytes]) -> None:
    """Writes `files` (name -> contents) and their manifest to the folder `path`, atomically.

    An empty folder or an earlier save at `path` is replaced; anything else is
    refused with `FileExistsError` before anything is written.
    """
    assert format_name in FORMATS and all(_plain_name(name) for name in files), files
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    _check_replaceable(path)
    staging = tempfile.mkdtemp(prefix=f".{os.path.basename(path)}.saving-", dir=parent)
    try:
        manifest = {"format": format_name, "version": version, "files": {}}
        for name, data in files.items():
            _write_synced(os.path.join(staging, name), data)
            manifest["files"][name] = {"bytes": len(data),
                                       "sha256": hashlib.sha256(data).hexdigest()}
        _write_synced(os.path.join(staging, MANIFEST),
                      json.dumps(manifest, indent=1).encode())
        _replace_folder(staging, path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _write_synced(filename: str, data: bytes) -> None:
    with open(filename, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _check_replaceable(path: str) -> None:
    """Raises `FileExistsError` unless `path` is absent, an empty folder, or an earlier save."""
    if not os.path.lexists(path):
        return
    if os.path.islink(path) or not os.path.isdir(path):
        raise FileExistsError(f"{path} exists and is not a folder; save to a new or empty "
                              f"folder")
    why = _not_a_save(path)
    if why is not None:
        raise FileExistsError(f"{path} is not an earlier save ({why}), and a save replaces "
                              f"the whole folder; nothing was changed: save to a new or "
                              f"empty folder")


def _not_a_save(path: str) -> str | None:
    """Why the folder `path` is not one that `write_folder` wrote, or None if it is (or empty)."""
    present = set(os.listdir(path))
    if not present:
        return None
    if MANIFEST not in present:
        return f"it holds files and no {MANIFEST}"
    try:
        manifest = json.loads(_read_regular(os.path.join(path, MANIFEST), None,
                                            MAX_MANIFEST_BYTES))
        listed = _check_manifest(manifest)
    except (LoadError, ValueError) as error:
        return f"its {MANIFEST} is not an autograph manifest: {error}"
    if manifest["format"] not in FORMATS:
        return f"its {MANIFEST} is a {manifest['format']!r}"
    others = sorted(present - set(listed) - {MANIFEST})
    if others:
        return (f"it holds {', '.join(others[:5])}{', ...' if len(others) > 5 else ''}, "
                f"which the manifest does not list")
    for name in present:
        if not stat.S_ISREG(os.lstat(os.path.join(path, name)).st_mode):
            return f"{name} is not a regular file"
    return None


def _replace_folder(staging: str, path: str) -> None:
    if not os.path.exists(path):
        os.rename(staging, path)
        return
    _check_replaceable(path)
    old = tempfile.mkdtemp(prefix=f".{os.path.basename(path)}.old-", dir=os.path.dirname(path))
    os.rmdir(old)
    os.rename(path, old)
    why = _not_a_save(old)  # again, out of reach by its name: a file may have arrived meanwhile
    if why is not None:
        os.rename(old, path)
        raise FileExistsError(f"{path} changed while the save replaced it ({why}); nothing "
                              f"was changed")
    os.rename(staging, path)
    shutil.rmtree(old, ignore_errors=True)


def read_folder(path, format_name: str, version: int, names: tuple[str, ...]) -> dict[str, bytes]:
    """The files `names` of a folder that `write_folder` wrote, checked against its manifest."""
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise LoadError(f"{path}: no such folder" if not os.path.exists(path)
                        else f"{path}: not a folder")
    manifest_file = os.path.join(path, MANIFEST)
    if not os.path.lexists(manifest_file):
        raise LoadError(f"{manifest_file}: missing; the folder is not a complete save "
                        f"(an interrupted save never writes it)")
    data = _read_regular(manifest_file, None, MAX_MANIFEST_BYTES)
    try:
        manifest = json.loads(data)
        entries = _check_manifest(manifest)
    except (ValueError, RecursionError) as error:
        raise LoadError(f"{manifest_file}: corrupted ({type(error).__name__}: {error})") from None
    if manifest["format"] != format_name:
        raise LoadError(f"{manifest_file}: holds a {manifest['format']!r}, not a "
                        f"{format_name!r}")
    if manifest["version"] > version:
        raise LoadError(f"{manifest_file}: format version {manifest['version']} was written "
                        f"by a newer autograph; this one reads versions up to {version}")
    unexpected = sorted(set(entries) - set(names))
    if unexpected:
        raise LoadError(f"{manifest_file}: lists {unexpected[0]!r}, which is not a file of "
                        f"a {format_name!r} ({', '.join(names)})")
    files = {}
    for name in names:
        filename = os.path.join(path, name)
        if name not in entries:
            raise LoadError(f"{filename}: missing (the manifest does not list it)")
        entry = entries[name]
        data = _read_regular(filename, entry["bytes"], entry["bytes"])
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise LoadError(f"{filename}: corrupted (its SHA-256 does not match the manifest)")
        files[name] = data
    return files


def _check_manifest(manifest) -> dict:
    """The manifest's `files` entries; `ValueError` saying what is malformed."""
    if not isinstance(manifest, dict) or set(manifest) != {"format", "version", "files"}:
        raise ValueError("a manifest is an object with the keys format, version and files")
    if not isinstance(manifest["format"], str):
        raise ValueError(f"format {manifest['format']!r} is not a string")
    if type(manifest["version"]) is not int or manifest["version"] < 1:
        raise ValueError(f"version {manifest['version']!r} is not a positive integer")
    entries = manifest["files"]
    if not isinstance(entries, dict):
        raise ValueError(f"files is a {type(entries).__name__}, not an object")
    for name, entry in entries.items():
        if not _plain_name(name):
            raise ValueError(f"{name!r} is not a plain file name inside the folder")
        if not (isinstance(entry, dict) and set(entry) == {"bytes", "sha256"}
                and type(entry["bytes"]) is int and entry["bytes"] >= 0
                and isinstance(entry["sha256"], str) and len(entry["sha256"]) == 64
                and set(entry["sha256"]) <= set(string.hexdigits.lower())):
            raise ValueError(f"the entry of {name!r} is not {{\"bytes\": size, "
                             f"\"sha256\": hex digest}}: {entry!r:.80}")
    return entries


def _plain_name(name) -> bool:
    """A file name inside the folder: no separator, not `.`/`..`, not the manifest."""
    return (isinstance(name, str) and name not in ("", ".", "..", MANIFEST)
            and not any(c in name for c in "/\\\0") and name.isprintable())


def _read_regular(filename: str, size: int | None, limit: int) -> bytes:
    """The bytes of the regular file `filename` (not a link), of `size` bytes if given."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        info = os.lstat(filename)
        if not stat.S_ISREG(info.st_mode):
            raise LoadError(f"{filename}: not a regular file (a link, a device, a pipe or a "
                            f"folder); a save holds only regular files")
        if size is not None and info.st_size != size:
            raise LoadError(f"{filename}: truncated or extended ({info.st_size} bytes, the "
                            f"manifest says {size})")
        if info.st_size > limit:
            raise LoadError(f"{filename}: {info.st_size} bytes, more than the {limit} a "
                            f"save's file can hold")
        fd = os.open(filename, flags)
    except FileNotFoundError:
        raise LoadError(f"{filename}: missing") from None
    except OSError as error:
        raise LoadError(f"{filename}: cannot be read ({error.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):   # replaced since the lstat
            raise LoadError(f"{filename}: not a regular file")
        data = f.read(limit + 1)
    if len(data) != info.st_size:
        raise LoadError(f"{filename}: changed while it was read")
    return data


# What parsing a malformed (but checksummed) file can raise, from the parsers and from
# runtime.serialization; `parsed` turns each into a LoadError naming the file.
MALFORMED = (KeyError, ValueError, TypeError, IndexError, AttributeError, SyntaxError,
             RecursionError, OverflowError, zipfile.BadZipFile, OSError, AutographError,
             VerificationError)


def parsed(path, name: str, parse, *args):
    """`parse(*args)`, with what a malformed file `name` of the folder `path` raises as LoadError."""
    try:
        return parse(*args)
    except MALFORMED as error:
        raise LoadError(f"{os.path.join(os.fspath(path), name)}: malformed "
                        f"({type(error).__name__}: {error})") from None


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def npz_arrays(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        return {name: npz[name] for name in npz.files}
