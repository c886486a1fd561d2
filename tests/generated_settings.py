"""Hypothesis settings shared by the generated-program tests.

40 examples by default (`AG_HYPOTHESIS_EXAMPLES` for longer runs), derandomized
where the environment variable `CI` is set, so CI sees the same programs each run.
"""
import os

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("AG_HYPOTHESIS_EXAMPLES", "40"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much])
