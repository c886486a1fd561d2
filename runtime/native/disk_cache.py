"""Compiled native code on disk, so a second process starts native at once.

Each graph's Numba source is written once to `runtime.config.native_cache_dir`,
named by a hash of the source (with its header) and of what the machine code
depends on (Numba's, NumPy's and Python's versions, the CPU), and imported from there; Numba's own
`cache=True` then keeps the machine code beside it (`__pycache__`). A file is
written to a temporary name and renamed, so processes compiling the same graph at
once never read half a file; where the cache cannot be used (a read-only folder, a
corrupt entry), the graph compiles in memory instead.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import platform
import sys
import tempfile

import numpy as np

from .. import config

HEADER = ("import numpy as np\nfrom numba import objmode\n"
          f"from {__package__}.compile import Deopt\n"
          f"from {__package__}.helpers import blas_operand, call_numpy\n\n\n")


def cache_key(source: str, numba_version: str) -> str:
    """The file name stem of `source` compiled on this machine."""
    text = "\n".join([HEADER, source, numba_version, np.__version__, sys.version,
                      platform.machine(), platform.processor()])
    return "g" + hashlib.sha256(text.encode()).hexdigest()[:32]


def load_function(source: str, name: str, numba_version: str):
    """`name` from `source` imported from its cached file; None where the cache is
    unusable (the caller compiles in memory)."""
    directory = config.native_cache_dir
    if not directory:
        return None
    key = cache_key(source, numba_version)
    path = os.path.join(directory, key + ".py")
    try:
        if not os.path.exists(path):
            os.makedirs(directory, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=directory, prefix=key, suffix=".tmp")
            with os.fdopen(fd, "w") as file:
                file.write(HEADER + source)
            os.replace(temp, path)
        module_name = f"autograph_native_{key}"
        module = sys.modules.get(module_name)
        if module is None:   # registered: Numba's cached code names its module
            spec = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[module_name] = module
        return getattr(module, name)
    except Exception:  # noqa: BLE001 - a read-only or corrupt cache: compile in memory
        return None


def numba_types(numba, specs) -> tuple:
    """Numba's types for `compile.type_specs`' `(dtype, ndim, layout)`s."""
    return tuple(numba.types.Array(numba.from_dtype(np.dtype(d)), ndim, layout) if ndim
                 else numba.from_dtype(np.dtype(d)) for d, ndim, layout in specs)


def nogil(source: str) -> bool:
    """Whether the machine code releases the GIL: not where it calls NumPy in an
    `objmode` block (`numpy_kernels`), which holds it (and Numba warns)."""
    return "with objmode(" not in source


def load_cached(numba, source, name, types):
    """The dispatcher compiled through the disk cache (None where it is unusable)."""
    cached = load_function(source, name, numba.__version__)
    if cached is None:
        return None
    try:
        return numba.njit(types, error_model="numpy", nogil=nogil(source), cache=True)(cached)
    except Exception:  # noqa: BLE001 - a stale or corrupt entry: compile in memory
        return None
