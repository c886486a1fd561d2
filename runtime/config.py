"""Settings, in one place. Library code reads them here; nothing reads the environment.

`verify_graphs`: run the IR verifier (`runtime.verify`) on every graph a graph
function traces, before compiling it. Off by default (it costs tracing time);
the test suite turns it on.

`native_cache_dir`: where the native tier keeps compiled graphs
(`runtime.native.disk_cache`); None or "" compiles in memory only.

`optimize`: compile each traced graph through the optimization passes
(`runtime.passes.optimize`); on by default. Turning it off compiles the
graph as traced (the tests compare both).

`merge_float_matmuls`: let `runtime.passes.merge_matmuls` merge float matrix
products too (`x @ A + h @ B` as one product: its sums in another order, a few
ulp apart from eager NumPy). Off by default; integer products always merge.
"""
import os

verify_graphs = False
native_cache_dir = os.path.join(os.path.expanduser("~"), ".cache", "autograph", "native")
optimize = True
merge_float_matmuls = False
