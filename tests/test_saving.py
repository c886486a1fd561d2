"""`ag.save` / `ag.load`: round trips in a fresh process, and every way a folder can be bad."""
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import autograph as ag

MODEL_SOURCE = '''
import collections
import numpy as np
import autograph as ag

Result = collections.namedtuple("Result", ["total", "steps"])


class Model:
    """A branch, a loop, two variables, a namedtuple and a Python value in the result."""

    def __init__(self):
        self.w = ag.Variable(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2), name="w")
        self.steps = ag.Variable(np.int64(0), name="steps")

    @ag.convert
    def step(self, x, n, rate=0.5):
        total = np.zeros(2, np.float32)
        i = 0
        while i < n:
            h = x[i] @ self.w
            if h.sum() > 0:
                total = total + np.tanh(h)
            else:
                total = total - h * rate
            i += 1
        self.w.assign_sub(rate * 0.1 * np.outer(x.mean(axis=0), total))
        self.steps.assign_add(1)
        return Result(total, self.steps.read_value()), "tag"
'''

LOAD_AND_RUN = '''
import json, sys
import numpy as np
import autograph as ag
f = ag.load(sys.argv[1])
x = np.asarray(json.loads(sys.argv[2]), np.float32)
out = []
for n in (3, 1, 4):
    (result, tag) = f(x, np.int64(n))
    out.append([result.total.tolist(), int(result.steps), tag, type(result).__name__])
out.append(f.variables[0].numpy().tolist())
print(json.dumps(out))
'''


@pytest.fixture
def model_module(tmp_path, monkeypatch):
    """The model's source as an importable module, deleted again before the test loads."""
    source = tmp_path / "saved_model_source.py"
    source.write_text(MODEL_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    module = importlib.import_module("saved_model_source")
    yield module
    sys.modules.pop("saved_model_source", None)


X = (np.arange(12, dtype=np.float32).reshape(4, 3) - 5) / 4


def expected_runs(module):
    model = module.Model()
    out = []
    for n in (3, 1, 4):
        result, tag = model.step(X, np.int64(n))
        out.append([result.total.tolist(), int(result.steps), tag, type(result).__name__])
    out.append(model.w.numpy().tolist())
    return out


def run_fresh(path, x):
    """Loads and runs the saved function in a new interpreter that has no source for it."""
    proc = subprocess.run([sys.executable, "-c", LOAD_AND_RUN, str(path), json.dumps(x.tolist())],
                          capture_output=True, text=True, timeout=120, cwd=os.path.dirname(path))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_round_trip_in_a_fresh_process(model_module, tmp_path):
    model = model_module.Model()
    ag.save(model.step, tmp_path / "saved", ag.TensorSpec((None, 3), np.float32),
            ag.TensorSpec((), np.int64))
    (tmp_path / "saved_model_source.py").unlink()      # load needs no source
    assert run_fresh(tmp_path / "saved", X) == expected_runs(model_module)


def test_the_graph_file_is_readable_versioned_json(model_module, tmp_path):
    model = model_module.Model()
    model.step(X, np.int64(2))
    ag.save(model.step, tmp_path / "saved")
    manifest = json.loads((tmp_path / "saved" / "manifest.json").read_text())
    assert manifest["format"] == "autograph.saved_function" and manifest["version"] == 3
    assert set(manifest["files"]) == {"function.json", "variables.npz", "constants.npz"}
    document = json.loads((tmp_path / "saved" / "function.json").read_text())
    assert document["function"] == "Model.step"
    assert [v["name"] for v in document["variables"]] == ["w", "steps"]
    assert document["variables"][0]["type"] == "ref float32[3,2]"
    [signature] = document["signatures"]
    assert [p["name"] for p in signature["parameters"]] == ["x", "n", "rate"]
    assert signature["leaves"] == [{"array": "float32[4,3]"}, {"array": "int64[]"},
                                   {"python": 0.5}]
    ops = [e["op"] for e in signature["graph"]["eqns"]]
    assert "while_loop" in ops and "assign_variable" in ops


def test_loaded_functions_update_their_own_variables(model_module, tmp_path):
    model = model_module.Model()
    model.step(X, np.int64(2))
    ag.save(model.step, tmp_path / "saved")
    loaded = ag.load(tmp_path / "saved")
    before = model.w.numpy()
    loaded(X, np.int64(2))
    loaded(X, np.int64(2))
    assert loaded.variables[1].numpy() == 3          # saved after one step, then two more
    np.testing.assert_array_equal(model.w.numpy(), before)   # the original is untouched
    model.step(X, np.int64(2))
    model.step(X, np.int64(2))
    np.testing.assert_allclose(loaded.variables[0].numpy(), model.w.numpy(), rtol=1e-6)


def test_a_loaded_function_saves_again_with_its_current_values(tmp_path):
    v = ag.Variable(np.zeros(2), name="v")
    f = ag.convert(lambda x: v.assign_add(x))
    ag.save(f, tmp_path / "first", ag.TensorSpec((2,), np.float64))
    loaded = ag.load(tmp_path / "first")
    loaded(np.ones(2))                                   # fine-tuned after loading
    ag.save(loaded, tmp_path / "second")
    again = ag.load(tmp_path / "second")
    np.testing.assert_array_equal(again.variables[0].numpy(), [1, 1])
    np.testing.assert_array_equal(again(np.ones(2)), [2, 2])
    with pytest.raises(TypeError, match="saved with the signatures it was saved with"):
        ag.save(loaded, tmp_path / "third", np.ones(3))


def test_several_signatures_and_dispatch(tmp_path):
    @ag.convert
    def f(x, mode="sum"):
        return x.sum() if mode == "sum" else x.max()

    ag.save(f, tmp_path / "saved", signatures=[
        (ag.TensorSpec((None,), np.float64),),
        (ag.TensorSpec((None,), np.float64), "max"),
        (ag.TensorSpec((2, 2), np.int64),)])
    g = ag.load(tmp_path / "saved")
    assert g(np.array([1.0, 5.0])) == 6.0
    assert g(np.array([1.0, 5.0]), mode="max") == 5.0
    assert g(np.arange(4).reshape(2, 2)) == 6
    with pytest.raises(TypeError, match="no saved signature of .*f accepts"):
        g(np.ones(3, np.float32))
    assert len(g.signatures) == 3


def test_a_loaded_function_composes_with_converted_code(tmp_path):
    f = ag.convert(lambda x: np.cumsum(x) * 2)
    ag.save(f, tmp_path / "saved", ag.TensorSpec((None,), np.float64))
    g = ag.load(tmp_path / "saved")
    h = ag.convert(lambda x: g(x) + 1)
    np.testing.assert_array_equal(h(np.arange(3.0)), np.cumsum(np.arange(3.0)) * 2 + 1)
    assert "call" in str(h.get_concrete_function(np.arange(3.0)).graph)


def test_saving_is_refused_for_what_cannot_be_exported(tmp_path):
    f = ag.convert(lambda x: ag.py_function(np.sort, x, out=ag.TensorSpec((3,), np.float64)))
    with pytest.raises(ValueError, match="calls py_function.*'sort' cannot be exported"):
        ag.save(f, tmp_path / "saved", np.ones(3))
    assert not (tmp_path / "saved").exists()

    class Config:
        k = 2
    g = ag.convert(lambda c, x: x * c.k)
    config = Config()                        # alive: the cache forgets the graphs of dead keys
    g(config, np.ones(2))
    with pytest.raises(ValueError, match="argument 'c' is a Config object"):
        ag.save(g, tmp_path / "saved")
    with pytest.raises(ValueError, match="no traced signature"):
        ag.save(ag.convert(lambda x: x), tmp_path / "saved")


# -- bad folders ------------------------------------------------------------------

@pytest.fixture
def saved(tmp_path):
    v = ag.Variable(np.arange(4.0), name="v")
    f = ag.convert(lambda x: v.assign_add(x))
    ag.save(f, tmp_path / "saved", np.ones(4))
    return tmp_path / "saved"


def corrupt_byte(filename, offset=-20):
    data = bytearray(filename.read_bytes())
    data[offset] ^= 0xFF
    filename.write_bytes(bytes(data))


@pytest.mark.parametrize("damage, message", [
    (lambda p: (p / "function.json").unlink(), r"function.json: missing"),
    (lambda p: (p / "manifest.json").unlink(), r"manifest.json: missing; the folder is not a "
                                               r"complete save"),
    (lambda p: (p / "variables.npz").write_bytes((p / "variables.npz").read_bytes()[:50]),
     r"variables.npz: truncated"),
    (lambda p: corrupt_byte(p / "constants.npz"), r"constants.npz: corrupted"),
    (lambda p: corrupt_byte(p / "function.json", 40), r"function.json: corrupted"),
    (lambda p: (p / "manifest.json").write_text("{not json"), r"manifest.json: corrupted"),
    (lambda p: (p / "manifest.json").write_text(
        (p / "manifest.json").read_text().replace('"version": 3', '"version": 7')),
     r"manifest.json: format version 7 was written by a newer autograph"),
])
def test_damaged_folders_fail_naming_the_file_and_problem(saved, damage, message):
    damage(saved)
    with pytest.raises(ag.LoadError, match=message):
        ag.load(saved)


def test_a_missing_folder(tmp_path):
    with pytest.raises(ag.LoadError, match="nowhere: no such folder"):
        ag.load(tmp_path / "nowhere")


def test_a_consistent_but_malformed_document_is_reported(saved):
    document = json.loads((saved / "function.json").read_text())
    document["signatures"][0]["graph"]["eqns"][0]["op"] = "no_such_op"
    data = json.dumps(document).encode()
    manifest = json.loads((saved / "manifest.json").read_text())
    import hashlib
    manifest["files"]["function.json"] = {"bytes": len(data),
                                          "sha256": hashlib.sha256(data).hexdigest()}
    (saved / "function.json").write_bytes(data)
    (saved / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ag.LoadError, match="malformed.*unknown primitive 'no_such_op'"):
        ag.load(saved)


SLOW_SAVE = '''
import sys, time
import numpy as np
import autograph as ag
import autograph.saved_files as files

real = files._write_synced
def slow(filename, data):
    real(filename, data)
    print("wrote", filename, flush=True)
    time.sleep(60)
files._write_synced = slow
v = ag.Variable(np.full(4, float(sys.argv[2])), name="v")
f = ag.convert(lambda x: x + v)
ag.save(f, sys.argv[1], np.ones(4))
'''


def test_an_interrupted_save_leaves_the_old_folder_or_nothing(tmp_path):
    target = tmp_path / "saved"

    def killed_save(value):
        proc = subprocess.Popen([sys.executable, "-c", SLOW_SAVE, str(target), str(value)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().startswith("wrote")    # in the middle of the save
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)

    killed_save(1.0)
    assert not target.exists()                          # nothing that could load
    v = ag.Variable(np.full(4, 2.0))
    ag.save(ag.convert(lambda x: x + v), target, np.ones(4))
    killed_save(3.0)
    np.testing.assert_array_equal(ag.load(target)(np.ones(4)), np.full(4, 3.0))  # the old one


def test_saving_over_a_folder_replaces_it(saved):
    w = ag.Variable(np.float32(5))
    ag.save(ag.convert(lambda x: x * w), saved, np.float32(1))
    assert ag.load(saved)(np.float32(2)) == 10
    assert sorted(os.listdir(saved.parent)) == ["saved"]   # no staging folders left


# -- checkpoints ------------------------------------------------------------------

class Dense:
    def __init__(self, n_in, n_out, seed):
        rng = np.random.default_rng(seed)
        self.w = ag.Variable(rng.normal(size=(n_in, n_out)).astype(np.float32), name="w")
        self.b = ag.Variable(np.zeros(n_out, np.float32), name="b")


class MLP:
    def __init__(self, seed, sizes=(3, 4, 2)):
        self.layers = [Dense(a, b, seed + i) for i, (a, b) in enumerate(zip(sizes, sizes[1:]))]
        self.config = {"step": ag.Variable(np.int64(seed), name="step"), "name": "mlp"}
        self.alias = self.layers[0].w                       # one variable, two paths


def test_checkpoint_round_trip_by_attribute_path(tmp_path):
    a, b = MLP(seed=1), MLP(seed=2)
    ckpt = ag.Checkpoint(model=a)
    assert list(ckpt.variables()) == ["model/layers/0/w", "model/layers/0/b", "model/layers/1/w",
                                      "model/layers/1/b", "model/config/step"]
    ckpt.save(tmp_path / "ckpt")
    ag.Checkpoint(model=b).restore(tmp_path / "ckpt")
    for va, vb in zip(ag.Checkpoint(model=a).variables().values(),
                      ag.Checkpoint(model=b).variables().values()):
        np.testing.assert_array_equal(va.numpy(), vb.numpy())
    assert b.alias is b.layers[0].w


@pytest.mark.parametrize("other, problem", [
    (lambda: MLP(seed=3, sizes=(3, 4)), "model/layers/1/w: in the checkpoint, but no such"),
    (lambda: MLP(seed=3, sizes=(3, 4, 2, 1)), "model/layers/2/w: not in the checkpoint"),
    (lambda: MLP(seed=3, sizes=(3, 5, 2)), r"model/layers/0/w: the checkpoint holds "
                                           r"float32\[3, 4\], the variable is float32\[3, 5\]"),
])
def test_restoring_into_a_mismatched_model_changes_nothing(tmp_path, other, problem):
    ag.Checkpoint(model=MLP(seed=1)).save(tmp_path / "ckpt")
    model = other()
    before = {p: v.numpy() for p, v in ag.Checkpoint(model=model).variables().items()}
    with pytest.raises(ag.CheckpointMismatchError, match=problem):
        ag.Checkpoint(model=model).restore(tmp_path / "ckpt")
    for p, v in ag.Checkpoint(model=model).variables().items():
        np.testing.assert_array_equal(v.numpy(), before[p])


def test_a_corrupted_checkpoint_is_reported(tmp_path):
    ag.Checkpoint(model=MLP(seed=1)).save(tmp_path / "ckpt")
    corrupt_byte(tmp_path / "ckpt" / "variables.npz")
    with pytest.raises(ag.LoadError, match="variables.npz: corrupted"):
        ag.Checkpoint(model=MLP(seed=1)).restore(tmp_path / "ckpt")
    with pytest.raises(ag.LoadError, match="holds a 'autograph.checkpoint', not a"):
        ag.load(tmp_path / "ckpt")


# -- the corpus, saved and loaded -------------------------------------------------

def _corpus_cases():
    from corpus import all_cases
    for module, fn, arg_tuples, xfail in all_cases():
        if not xfail:
            yield pytest.param(fn, arg_tuples, id=f"{module}.{fn.__name__}")


@pytest.mark.parametrize("fn, arg_tuples", list(_corpus_cases()))
def test_every_corpus_function_survives_save_and_load(fn, arg_tuples, tmp_path, capsys):
    """Each graph of the corpus, written and read back, computes what the original graph does."""
    f = ag.convert(fn)
    with np.errstate(all="ignore"):
        expected = [f(*args) for args in arg_tuples]
    try:
        ag.save(f, tmp_path / "saved")
    except ValueError as error:                 # a py_function or a Python object argument
        assert "cannot be" in str(error)
        return
    loaded = ag.load(tmp_path / "saved")
    capsys.readouterr()
    with np.errstate(all="ignore"):
        got = [loaded(*args) for args in arg_tuples]
    printed = capsys.readouterr().out
    with np.errstate(all="ignore"):
        for args in arg_tuples:
            f(*args)
    assert printed == capsys.readouterr().out
    from autograph_runtime.tree import flatten
    for e, g in zip(expected, got):
        e_leaves, e_tree = flatten(e)
        g_leaves, g_tree = flatten(g)
        assert repr(e_tree) == repr(g_tree)
        for a, b in zip(e_leaves, g_leaves):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
            assert np.asarray(a).dtype == np.asarray(b).dtype
