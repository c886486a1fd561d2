"""The hints of the runtime's errors about traced values, as an autograph user reads them.

`autograph_runtime.hints.HINTS` names the runtime's API; here its entries name
`ag.shape` and the like, and say what differs between code autograph converted
(where `if`, `while` and NumPy calls are staged, but a comprehension's `if` or
`max(a, b)` are not) and code called as it is (`@ag.do_not_convert`, a
library, `ag.convert(f, autograph=False)`):

>>> from autograph_runtime.hints import hint
>>> hint("length")
'ag.shape(x)[0] is its size when the graph runs'
>>> hint("bool", converted=False, function="clip")
"clip is called as it is (marked @ag.do_not_convert, a library's, or traced with \
ag.convert(..., autograph=False)), so its if/while/and/or need a Python bool: let autograph \
convert it, or write the choice with np.where"
"""
from __future__ import annotations

from autograph_runtime.errors import add_note_once
from autograph_runtime.hints import HINTS
from autograph_runtime.source import is_user_file, location_note, original_location

_AS_IT_IS = ("{function} is called as it is (marked @ag.do_not_convert, a library's, or "
             "traced with ag.convert(..., autograph=False))")

HINTS.update({
    "bool": (_AS_IT_IS + ", so its if/while/and/or need a Python bool: let autograph "
             "convert it, or write the choice with np.where"),
    "bool in converted code": (
        "autograph stages if/while/for statements, and/or/not and conditional "
        "expressions, max(), min() and sorted() of numbers, and comprehensions filtering a "
        "traced array, but not the `if` of a comprehension over a Python list or with "
        "several `for`s, or the comparisons of a key= function: write a for statement, or "
        "use np.where, np.maximum, np.minimum or np.argsort"),
    "length": "ag.shape(x)[0] is its size when the graph runs",
    "text": ("its text exists only when the graph runs: print it (print is staged), write "
             "an f-string (converted f-strings are formatted when the graph runs, for print "
             "and assert messages), or return the value and format it outside"),
    "size": "np.prod(ag.shape(x)) is its size when the graph runs",
    "array": (_AS_IT_IS + ", and {numpy} converts its arguments with np.asarray, which a "
              "traced value cannot give: let autograph convert it ({numpy} is staged in "
              "converted code where a traced version exists), or call it through "
              "ag.py_function"),
    "array in converted code": (
        "{numpy} converts its arguments with np.asarray, which a traced value cannot give "
        "(it has no traced version, docs/numpy.md): call it through ag.py_function, or "
        "write it with NumPy functions that are staged"),
})


def note_unknown_dimension(error: Exception, keys) -> None:
    """Adds the way out to a `TypeError` about `None` (`x.shape[0] > 1`, `range(x.shape[0])`)
    raised while tracing a signature with an unknown dimension: in code called as it is,
    `x.shape` holds None for it."""
    if not isinstance(error, TypeError) or "NoneType" not in str(error) or not any(
            None in getattr(k, "shape", ()) for k in keys):
        return
    where, tb = None, error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if is_user_file(code.co_filename):
            where = original_location(code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    add_note_once(error, (
        f"a dimension unknown while tracing (None in a TensorSpec, or made unknown by "
        f"reduce_retracing) is None in x.shape{location_note(where)}; ag.shape(x)[0] is its "
        f"size when the graph runs (in converted code x.shape[0] is staged by itself), or "
        f"trace with that dimension known"))
