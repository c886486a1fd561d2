"""The way out that an error about a traced value suggests, by situation.

The runtime's messages name its own API; a front end that users reach through
other names (`autograph` says `ag.shape`, and knows which code it converts)
replaces the entries with `HINTS.update(...)`; `RUNTIME_HINTS` keeps these. Each entry is a template:
`{function}` is the user's function the error was raised in, `{numpy}` the
NumPy function that asked for a concrete array (`np.full`), or "NumPy".

>>> RUNTIME_HINTS["length"]
'autograph_runtime.dynamic_shape(x)[0] is its size when the graph runs'
"""
from __future__ import annotations

RUNTIME_HINTS = {
    # bool(x) / if / while / and / or on a traced value, in code called as it is
    "bool": ("Python control flow on a traced value needs autograph_runtime.cond or "
             "autograph_runtime.while_loop (or np.where for a choice of values)"),
    # len(x) of an unknown first dimension
    "length": "autograph_runtime.dynamic_shape(x)[0] is its size when the graph runs",
    # x.size of an unknown shape
    "size": "np.prod(autograph_runtime.dynamic_shape(x)) is its size when the graph runs",
    # str(x), "%s" % x, "{}".format(x) of a traced value
    "text": "its text exists only when the graph runs: print it, or return it",
    # np.asarray(x), and NumPy functions that call it on their arguments
    "array": ("{numpy} converts it with np.asarray, which a traced value cannot give: "
              "use NumPy functions that take traced values (ufuncs, np.where, ...) or "
              "call it through a Python callback"),
}
HINTS = dict(RUNTIME_HINTS)


def hint(situation: str, converted: bool = False, function: str = "",
         numpy: str = "NumPy") -> str:
    """The hint for `situation` (its entry "SITUATION in converted code" where the error
    was raised in code a converter generated and there is one), filled in."""
    text = HINTS.get(f"{situation} in converted code") if converted else None
    return (text or HINTS[situation]).format(function=function or "this function",
                                             numpy=numpy)
