"""`format_text`: a text formatted from traced values, as a value a function returns.

An f-string, `str(x)` or `format(x, spec)` of traced values is a `FormattedText`
(`runtime/texts.py`) while tracing; where the function returns one, the graph
formats it when it runs, into a 0-d array of NumPy's variable-width
`StringDType`, and the caller gets the `str` eager code returns:

>>> import numpy as np
>>> import autograph as ag
>>> @ag.convert
... def describe(x):
...     return f"mean={x.mean():.2f} over {x.size}"
>>> describe(np.array([1.0, 2.5]))
'mean=1.75 over 2'

The kernel is Python's formatting (`texts.render`), so the graph runs on the
NumPy tier only, and cannot be saved or exported to ONNX. A text chosen by a
staged `if` is still refused (`FormattedText`'s error).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..texts import FormattedText, render
from ..tracer import Tracer, bind

TEXT = np.dtypes.StringDType()


def _abstract_eval(*values, parts):
    return AbstractValue((), TEXT)


def _kernel(xp, parts):
    def run(*values):
        return np.array(render(parts, values), dtype=TEXT)
    return run


format_text_p = primitives.define("format_text", _abstract_eval, _kernel)
primitives.save_rules[format_text_p] = lambda eqn: (
    "a text formatted from traced values is Python's formatting, run when the graph runs; "
    "return the values and format them outside to save the function")


def text_value(text: FormattedText) -> Tracer:
    """The graph value of a text formatted when the graph runs."""
    return bind(format_text_p, *text.values, parts=text.parts)
