"""Test options, the import path of the test helpers, graph verification, and Hypothesis's
profile: examples drawn the same way on every run (`HYPOTHESIS_PROFILE=explore` draws anew;
campaigns explore further, see tests/generated_settings.py)."""
import os
import sys

from hypothesis import settings

import autograph.eager_fallback
import autograph.tiers
import autograph_runtime.config
import autograph_runtime as runtime

sys.path.insert(0, os.path.dirname(__file__))
runtime.config.verify_graphs = True  # every graph traced in the tests passes the verifier
autograph.tiers.settings.tier = "numpy"  # no background compiles; tests/test_native_tier.py opts in
# a refusal is an error, as the graph is what the tests check; tests/test_eager_fallback.py opts in
autograph.eager_fallback.settings.eager_fallback = False
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/*.golden from the current converters")
