"""Test options, the import path of the test helpers, and graph verification."""
import os
import sys

import runtime.config

sys.path.insert(0, os.path.dirname(__file__))
runtime.config.verify_graphs = True  # every graph traced in the tests passes the verifier


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/*.golden from the current converters")
