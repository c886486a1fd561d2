"""The runtime's import name: `autograph_runtime`, whatever its folder is called.

The runtime lives in the repository's `runtime/` folder (see `runtime/README.md`)
and is imported as `autograph_runtime`, so a user's own `runtime.py`, or another
distribution's `runtime` package, can neither hide it nor be hidden by it. An
installed copy gets the name from `setup.cfg` (`package_dir`). A source tree (this
package beside `setup.cfg` and `runtime/`: a checkout, an editable install, a
worktree on `PYTHONPATH`) binds its own `runtime/` folder under that name before
anything imports it, so each checkout runs its own runtime.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

NAME = "autograph_runtime"


def bind_source_tree() -> None:
    """Imports the source tree's `runtime/` as `autograph_runtime`, where this is one."""
    root = Path(__file__).resolve().parent.parent
    init = root / "runtime" / "__init__.py"
    if NAME in sys.modules or not (root / "setup.cfg").is_file() or not init.is_file():
        return
    spec = importlib.util.spec_from_file_location(
        NAME, init, submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[NAME]
        raise


bind_source_tree()
