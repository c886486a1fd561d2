"""The folder format shared by `ag.save` and `ag.Checkpoint`: atomic, checked, versioned.

A folder holds data files and, written last, `manifest.json`: the format's
name and version and each file's size and SHA-256. `write_folder` writes into
a temporary folder beside the target and renames it into place, so an
interrupted save leaves either the old folder or none, never a part; and
`read_folder` checks the manifest before anything is parsed, so a missing,
truncated or corrupted file is reported by name.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile

import numpy as np

from runtime.errors import AutographError

MANIFEST = "manifest.json"


class LoadError(AutographError):
    """A saved folder cannot be read: missing, incomplete, corrupted, or of a newer version."""


def write_folder(path, format_name: str, version: int, files: dict[str, bytes]) -> None:
    """Writes `files` (name -> contents) and their manifest to the folder `path`, atomically.

    An earlier save at `path` is replaced; a folder holding anything else is refused.
    """
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
    if not os.path.exists(path):
        return
    if not os.path.isdir(path):
        raise FileExistsError(f"{path} exists and is not a folder")
    if os.listdir(path) and not os.path.exists(os.path.join(path, MANIFEST)):
        raise FileExistsError(f"{path} is a folder that holds other files, not an earlier "
                              f"save; save to a new or empty folder")


def _replace_folder(staging: str, path: str) -> None:
    if not os.path.exists(path):
        os.rename(staging, path)
        return
    _check_replaceable(path)
    old = tempfile.mkdtemp(prefix=f".{os.path.basename(path)}.old-", dir=os.path.dirname(path))
    os.rmdir(old)
    os.rename(path, old)
    os.rename(staging, path)
    shutil.rmtree(old, ignore_errors=True)


def read_folder(path, format_name: str, version: int) -> dict[str, bytes]:
    """The files of a folder that `write_folder` wrote, checked against its manifest."""
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise LoadError(f"{path}: no such folder" if not os.path.exists(path)
                        else f"{path}: not a folder")
    manifest_file = os.path.join(path, MANIFEST)
    if not os.path.exists(manifest_file):
        raise LoadError(f"{manifest_file}: missing; the folder is not a complete save "
                        f"(an interrupted save never writes it)")
    try:
        with open(manifest_file, "rb") as f:
            manifest = json.loads(f.read())
        found_format, found_version = manifest["format"], int(manifest["version"])
        entries = dict(manifest["files"])
    except (ValueError, KeyError, TypeError) as error:
        raise LoadError(f"{manifest_file}: corrupted ({type(error).__name__}: {error})") from None
    if found_format != format_name:
        raise LoadError(f"{manifest_file}: holds a {found_format!r}, not a {format_name!r}")
    if found_version > version:
        raise LoadError(f"{manifest_file}: format version {found_version} was written by a "
                        f"newer autograph; this one reads versions up to {version}")
    files = {}
    for name, entry in entries.items():
        filename = os.path.join(path, name)
        if not os.path.exists(filename):
            raise LoadError(f"{filename}: missing")
        with open(filename, "rb") as f:
            data = f.read()
        if len(data) != entry["bytes"]:
            raise LoadError(f"{filename}: truncated or extended ({len(data)} bytes, the "
                            f"manifest says {entry['bytes']})")
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise LoadError(f"{filename}: corrupted (its SHA-256 does not match the manifest)")
        files[name] = data
    return files


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def npz_arrays(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        return {name: npz[name] for name in npz.files}
