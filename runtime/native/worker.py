"""Compiling a graph's Numba source in another process, into the disk cache.

A compile is seconds of Python work under the GIL: on a background thread of the
calling process it slows the caller's own calls by about half while it lasts
(`bench/native_tier.py`, "compile in the background"). So `tier="auto"` runs the
compile in a short-lived worker process (this module's `main`),
which writes the machine code to `runtime.config.native_cache_dir`; the calling
process then only loads it. Where the worker fails, the caller compiles itself.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .. import config
from .disk_cache import load_cached, numba_types
from .loader import numba_module


# The child imports this very runtime folder under this very package name (a source
# tree's `runtime/` is on no path under its name, see autograph/runtime_package.py).
_CHILD = """\
import importlib.util, sys
folder, package = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location(
    package, folder + "/__init__.py", submodule_search_locations=[folder])
sys.modules[package] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sys.modules[package])
sys.exit(importlib.import_module(package + ".native.worker").main())
"""


def compile_in_worker(source: str, name: str, specs: list, timeout: float = 300) -> bool:
    """Runs the worker on `source`; True where it filled the disk cache."""
    if not config.native_cache_dir:
        return False
    job = json.dumps({"source": source, "name": name, "specs": specs,
                      "cache_dir": config.native_cache_dir})
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    try:
        package = __name__.rsplit(".", 2)[0]
        child = [sys.executable, "-c", _CHILD, str(Path(__file__).resolve().parent.parent), package]
        done = subprocess.run(child, input=job, text=True, capture_output=True,
                              timeout=timeout, env=env)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def main() -> int:
    job = json.loads(sys.stdin.read())
    config.native_cache_dir = job["cache_dir"]
    numba = numba_module()
    types = numba_types(numba, [tuple(s) for s in job["specs"]])
    return 0 if load_cached(numba, job["source"], job["name"], types) is not None else 1


if __name__ == "__main__":
    sys.exit(main())
