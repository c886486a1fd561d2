"""The pytest plugin, loaded through the `pytest11` entry point.

For now it reports which backends this machine can run graphs on; the
graph-equivalence fixture and marker build on it.
"""
from __future__ import annotations


def available_backends() -> list[str]:
    """"cpu", plus "gpu" where CuPy sees a GPU."""
    from runtime.backend import gpu_available
    return ["cpu"] + (["gpu"] if gpu_available() else [])


def pytest_report_header(config):
    return f"autograph backends: {', '.join(available_backends())}"
