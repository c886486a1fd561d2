"""Settings, in one place. Library code reads them here; nothing reads the environment.

`verify_graphs`: run the IR verifier (`runtime.verify`) on every graph a graph
function traces, before compiling it. Off by default (it costs tracing time);
the test suite turns it on.

`native_cache_dir`: where the native tier keeps compiled graphs
(`runtime.native.disk_cache`); None or "" compiles in memory only.
"""
import os

verify_graphs = False
native_cache_dir = os.path.join(os.path.expanduser("~"), ".cache", "autograph", "native")
