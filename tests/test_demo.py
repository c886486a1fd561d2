"""`python examples/demo.py`, the README's tour, runs and prints what it says it does."""
import os
import subprocess
import sys

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")


def test_the_demo_runs_and_labels_what_it_prints():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [os.path.join(EXAMPLES, ".."), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "demo.py"], cwd=EXAMPLES, env=env, text=True,
                         capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "collatz(27) = 111  (Python: 111)" in out
    assert "traced 1 time: the loop and the branch are staged" in out
    assert "same as eager NumPy: True; median per call: eager " in out and " µs, graph " in out
    chart = out[out.index("training loss (mean squared error"):].splitlines()
    assert chart[1].split()[:3] == ["step", "loss", "bar:"] and "log scale" in chart[1]
    assert chart[2].split()[0] == "0" and chart[-2].split()[0] == "299"
    assert chart[-1].startswith("traced 1 time(s); final loss")
