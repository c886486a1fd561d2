"""Settings, in one place. Library code reads them here; nothing reads the environment.

`verify_graphs`: run the IR verifier (`runtime.verify`) on every graph a graph
function traces, before compiling it. Off by default (it costs tracing time);
the test suite turns it on.
"""
verify_graphs = False
