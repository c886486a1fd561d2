"""Saving never deletes what it did not write; loading reads only its own files.

Issue #11 ("Trust"): a save replaces only an empty folder or an earlier save
(one of this project's manifests, nothing else in the folder); a load reads
only the plain, regular files its manifest lists, checks their sizes before
reading, and turns every malformed part into an `ag.LoadError` naming the file.
"""
import copy
import hashlib
import json
import os
import random
import signal

import numpy as np
import pytest

import autograph as ag


@pytest.fixture
def saved(tmp_path):
    v = ag.Variable(np.arange(4.0), name="v")
    f = ag.convert(lambda x: v.assign_add(x))
    ag.save(f, tmp_path / "saved", np.ones(4))
    return tmp_path / "saved"


def snapshot(folder):
    """Every path under `folder` with its bytes (None for a folder)."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), folder)] = None
        for name in files:
            out[os.path.relpath(os.path.join(root, name), folder)] = open(
                os.path.join(root, name), "rb").read()
    return out


def write_manifest(folder, manifest):
    (folder / "manifest.json").write_text(json.dumps(manifest))


def rewrite(folder, name, data: bytes):
    """Replaces `name` and updates its size and checksum, so the change reaches the parser."""
    (folder / name).write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    write_manifest(folder, manifest)


# -- a save replaces only an empty folder or an earlier save --------------------------------

def test_a_file_written_while_a_save_replaces_the_folder_survives(saved, monkeypatch):
    """The folder is checked again once it is renamed out of the way: a file that
    arrived after the first check makes the save give the folder back, untouched."""
    from autograph import saved_files
    first_check = saved_files._check_replaceable

    checks = []

    def check_then_someone_writes(path):  # before writing, and just before replacing
        first_check(path)
        checks.append(path)
        if len(checks) == 2:
            (saved / "notes.txt").write_text("mine")
    monkeypatch.setattr(saved_files, "_check_replaceable", check_then_someone_writes)
    before = snapshot(saved)
    f = ag.convert(lambda x: x * 2)
    with pytest.raises(FileExistsError, match="changed while the save replaced it"):
        ag.save(f, saved, np.ones(4))
    assert len(checks) == 2
    assert snapshot(saved) == {**before, "notes.txt": b"mine"}
    assert [p for p in os.listdir(saved.parent) if p.startswith(".saved")] == []


def web_app(folder):
    folder.mkdir()
    (folder / "manifest.json").write_text('{"name": "my app", "start_url": "index.html"}')
    (folder / "index.html").write_text("<html></html>")
    (folder / "src").mkdir()
    (folder / "src" / "app.js").write_text("main()")


def save_function(path):
    ag.save(ag.convert(lambda x: x + 1), path, np.ones(2))


def save_checkpoint(path):
    ag.Checkpoint(model=[ag.Variable(np.ones(2))]).save(path)


SAVES = [pytest.param(save_function, id="ag.save"),
         pytest.param(save_checkpoint, id="Checkpoint.save")]


@pytest.mark.parametrize("save", SAVES)
def test_a_folder_with_someone_elses_manifest_is_refused_and_kept(tmp_path, save):
    web_app(tmp_path / "app")
    before = snapshot(tmp_path / "app")
    with pytest.raises(FileExistsError, match="is not an earlier save .*nothing was changed"):
        save(tmp_path / "app")
    assert snapshot(tmp_path / "app") == before
    assert sorted(os.listdir(tmp_path)) == ["app"]          # no staging folder left behind


@pytest.mark.parametrize("save", SAVES)
def test_an_earlier_save_with_other_files_added_is_refused(saved, save):
    (saved / "notes.txt").write_text("mine")
    before = snapshot(saved)
    with pytest.raises(FileExistsError, match="notes.txt, which the manifest does not list"):
        save(saved)
    assert snapshot(saved) == before


@pytest.mark.parametrize("change, why", [
    (lambda m: m.update(format="someone.else"), "is a 'someone.else'"),
    (lambda m: m.update(version="2"), "version '2' is not a positive integer"),
    (lambda m: m.pop("files"), "not an autograph manifest"),
    (lambda m: m["files"].update({"../x": m["files"]["function.json"]}), "not a plain file"),
])
def test_a_manifest_that_is_not_ours_is_refused(saved, change, why):
    manifest = json.loads((saved / "manifest.json").read_text())
    change(manifest)
    write_manifest(saved, manifest)
    before = snapshot(saved)
    with pytest.raises(FileExistsError, match=why):
        save_function(saved)
    assert snapshot(saved) == before


def test_a_linked_file_in_an_earlier_save_is_refused(saved, tmp_path):
    (tmp_path / "elsewhere").write_text("x")
    (saved / "constants.npz").unlink()
    (saved / "constants.npz").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(FileExistsError, match="constants.npz is not a regular file"):
        save_function(saved)
    assert (tmp_path / "elsewhere").read_text() == "x"


@pytest.mark.parametrize("save", SAVES)
def test_empty_folders_and_earlier_saves_of_either_kind_are_replaced(tmp_path, save):
    (tmp_path / "empty").mkdir()
    save(tmp_path / "empty")
    save_function(tmp_path / "a")
    save(tmp_path / "a")
    save_checkpoint(tmp_path / "b")
    save(tmp_path / "b")
    assert sorted(os.listdir(tmp_path)) == ["a", "b", "empty"]


# -- a load reads only its own files -------------------------------------------------------

def entry_of(saved, name):
    return json.loads((saved / "manifest.json").read_text())["files"][name]


@pytest.mark.parametrize("listed, message", [
    ("/dev/zero", "'/dev/zero' is not a plain file name"),
    ("../secret", "'../secret' is not a plain file name"),
    ("sub/function.json", "is not a plain file name"),
    ("..", "'..' is not a plain file name"),
    ("notes.txt", "lists 'notes.txt', which is not a file of a 'autograph.saved_function'"),
])
def test_the_manifest_names_only_plain_files_of_the_format(saved, listed, message):
    manifest = json.loads((saved / "manifest.json").read_text())
    manifest["files"][listed] = manifest["files"].pop("function.json")
    write_manifest(saved, manifest)
    with pytest.raises(ag.LoadError, match=message):
        ag.load(saved)


def test_a_link_out_of_the_folder_is_not_read(saved, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_bytes((saved / "function.json").read_bytes())
    (saved / "function.json").unlink()
    (saved / "function.json").symlink_to(outside)
    with pytest.raises(ag.LoadError, match="function.json: not a regular file"):
        ag.load(saved)


def test_a_pipe_is_not_read(saved):
    (saved / "variables.npz").unlink()
    os.mkfifo(saved / "variables.npz")        # reading it would block forever

    def blocked(*_):
        raise TimeoutError("ag.load opened the pipe and blocks reading it")
    previous = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(10)
    try:
        with pytest.raises(ag.LoadError, match="variables.npz: not a regular file"):
            ag.load(saved)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_sizes_are_checked_before_reading(saved, monkeypatch):
    with open(saved / "constants.npz", "ab") as f:
        f.truncate(1 << 40)                    # a sparse terabyte: reading it would exhaust memory
    with pytest.raises(ag.LoadError, match=r"constants.npz: truncated or extended \(1099511627776"):
        ag.load(saved)


@pytest.mark.parametrize("change, message", [
    (lambda m: m["files"]["function.json"].pop("sha256"), "the entry of 'function.json' is not"),
    (lambda m: m["files"]["function.json"].update(bytes="12"), "the entry of 'function.json'"),
    (lambda m: m["files"]["function.json"].update(bytes=-1), "the entry of 'function.json'"),
    (lambda m: m.update(files=[]), "files is a list, not an object"),
    (lambda m: m.update(version=True), "version True is not a positive integer"),
    (lambda m: m["files"].pop("constants.npz"), "constants.npz: missing \\(the manifest does"),
])
def test_a_malformed_manifest_is_a_load_error(saved, change, message):
    manifest = json.loads((saved / "manifest.json").read_text())
    change(manifest)
    write_manifest(saved, manifest)
    with pytest.raises(ag.LoadError, match="manifest.json: corrupted .*" + message
                       if "missing" not in message else message):
        ag.load(saved)


def graph_name(document, name):
    document["signatures"][0]["graph"]["name"] = name


@pytest.mark.parametrize("change, message", [
    (lambda d: graph_name(d, "1st"), "graph name '1st' is not an identifier"),
    (lambda d: graph_name(d, "f(): pass\nimport os\ndef g"), "is not an identifier"),
    (lambda d: graph_name(d, "if"), "graph name 'if' is not an identifier"),
    (lambda d: graph_name(d, 7), "graph name 7 is not an identifier"),
    (lambda d: d["signatures"][0]["graph"]["eqns"][0].pop("out"), "KeyError: 'out'"),
    (lambda d: d["signatures"][0]["graph"].update(inputs=5), "TypeError"),
    (lambda d: d["signatures"][0].update(variables=[-1]), "not all among the 1 saved"),
    (lambda d: d["signatures"][0]["graph"]["outputs"].__setitem__(0, True), "not by a non-neg"),
    (lambda d: d["variables"][0].update(type="object[4]"), "'object' is not the name of a "
                                                           "numeric dtype"),
    (lambda d: d["signatures"][0]["parameters"][0].update(kind="__class__"), "KeyError"),
])
def test_a_malformed_document_is_a_load_error_naming_the_file(saved, change, message):
    document = json.loads((saved / "function.json").read_text())
    change(document)
    rewrite(saved, "function.json", json.dumps(document).encode())
    with pytest.raises(ag.LoadError, match=r"function.json: malformed "
                                           r"\(.*" + message):
        ag.load(saved)


def test_a_malformed_checkpoint_index_is_a_load_error(tmp_path):
    save_checkpoint(tmp_path / "ckpt")
    restore = ag.Checkpoint(model=[ag.Variable(np.ones(2))]).restore
    for index, message in [(b"{}", "index.json: malformed"), (b"[1]", "index.json: malformed"),
                           (b'[{"path": "model/0", "key": "v9"}]', "names 'v9', which"),
                           (b"[", "index.json: malformed")]:
        rewrite(tmp_path / "ckpt", "index.json", index)
        with pytest.raises(ag.LoadError, match=message):
            restore(tmp_path / "ckpt")


# -- the fuzz test ---------------------------------------------------------------------------

def fields(node, path=()):
    """The path of every field of a JSON document (the document itself is path ())."""
    yield path
    children = node.items() if isinstance(node, dict) else (
        enumerate(node) if isinstance(node, list) else ())
    for key, child in children:
        yield from fields(child, path + (key,))


REPLACEMENTS = [None, True, -1, 0, 3, 10 ** 30, 1.5, "", "x", "../x", "/dev/zero", "float32[3]",
                [], [[]], {}, {"x": 1}, {"graph_ref": 99}, {"literal": 1}]
DELETE = object()
# Values the format lets hold any JSON value: a literal, a param, a Python argument, result or
# default, a dict key of a structure, an operand (a number or a literal). Changing one may
# change the results (a literal 2 made 3); the load must still either fail with LoadError or
# give a function whose calls return or raise as calls do.
VALUE_FIELDS = {"literal", "python", "default", "params", "dict", "in", "outputs"}


def json_kind(value):
    return "int" if type(value) is int else type(value).__name__


def mutated(document, path, value):
    document = copy.deepcopy(document)
    if not path:
        return {} if value is DELETE else value
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return document


def fuzz_function():
    v = ag.Variable(np.arange(3.0), name="v")

    @ag.convert
    def f(x, n=2):
        y = x * n
        if y.sum() > 0:
            y = y + v
        else:
            y = y - 1
        i = 0
        while i < 3:
            y = y[::2] * 2.0 if i == 5 else y * 2.0
            i += 1
        v.assign_add(x)
        return {"y": y.mean(axis=0, keepdims=True), "n": n}
    return f


def check_mutation(folder, name, expected, x, value_field):
    try:
        loaded = ag.load(folder)
    except ag.LoadError:
        return "refused"
    try:
        with np.errstate(all="ignore"):
            got = loaded(x)
    except (TypeError, ValueError):
        assert value_field, f"a structural change of {name} loaded, then its call failed"
        return "call failed"
    same = (isinstance(got, dict) and list(got) == ["y", "n"] and got["n"] == expected["n"]
            and np.array_equal(got["y"], expected["y"]))
    assert same or value_field, f"a structural change of {name} loaded with other results"
    return "same" if same else "changed"


def test_every_field_of_a_saved_folder_mutated_loads_the_same_or_is_a_load_error(tmp_path):
    f = fuzz_function()
    x = np.ones(3)
    ag.save(f, tmp_path / "saved", x)
    original = {name: (tmp_path / "saved" / name).read_bytes()
                for name in ("function.json", "manifest.json")}
    expected = ag.load(tmp_path / "saved")(x)
    rng = random.Random(11)
    outcomes = {}
    n_fields = 0
    for name in ("function.json", "manifest.json"):
        document = json.loads(original[name])
        for path in fields(document):
            n_fields += 1
            node = document
            for key in path:
                node = node[key]
            choices = [r for r in REPLACEMENTS if json_kind(r) != json_kind(node)]
            for value in rng.sample(choices, 2) + [DELETE]:
                for restore in original:          # each mutation starts from the saved folder
                    (tmp_path / "saved" / restore).write_bytes(original[restore])
                data = json.dumps(mutated(document, path, value)).encode()
                value_field = bool(VALUE_FIELDS & {k for k in path if isinstance(k, str)})
                if name == "manifest.json":
                    (tmp_path / "saved" / name).write_bytes(data)
                else:                             # with its checksum, to reach the parser
                    rewrite(tmp_path / "saved", name, data)
                outcome = check_mutation(tmp_path / "saved", name, expected, x, value_field)
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert n_fields > 200 and outcomes["refused"] > outcomes.get("changed", 0), outcomes
