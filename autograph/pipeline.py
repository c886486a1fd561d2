"""The converters, in the order they run. Each is `transform(function_node, ctx)`.

`agc FILE.py::FUNC --stage N` prints the source after the first N of them. A
converter that declares `ACTS_ON` (the kinds of node and the names it rewrites,
which no converter before it makes) is skipped where the function holds none of
them (`conversion._has_work`): a walk of the tree that would change nothing.
"""
from .converters import (
                         breaks,
                         calls,
                         conditional_expressions,
                         fors,
                         in_place_calls,
                         ifs,
                         index_tricks,
                         item_reads,
                         lists,
                         logical,
                         print_assert,
                         returns,
                         shapes,
                         suppress,
                         tries,
                         whiles,
                         writes,
)

PIPELINE = (
    # `with contextlib.suppress(E):` is `try: ... except E: pass` for all that follows.
    ("suppress", suppress),
    # Item, attribute and global writes first, while targets are still plain.
    ("writes", writes),
    # `xs.append(v)` rebinds xs, so loops below see the list as state they change.
    ("lists", lists),
    # `t.fill(v)`, `np.add(a, b, out=t)` rebind t, like the writes above.
    ("in_place_calls", in_place_calls),
    # `break`/`continue`, then `return`: they become flags and guarding `if`s,
    # which the control-flow converters below then convert like any other `if`.
    ("breaks", breaks),
    ("returns", returns),
    # `try` once the jumps are flags (their guards are control flow the handlers must
    # read back), before the `if`s and loops it finds in the body become calls.
    ("tries", tries),
    # `print`/`assert` before calls, so they become ag__ calls and stay so.
    ("print_assert", print_assert),
    # Expressions next: their lambdas are then just reads for the analyses.
    ("conditional_expressions", conditional_expressions),
    ("logical", logical),
    # Statements, each pass analysing the code as the previous left it.
    ("ifs", ifs),
    ("whiles", whiles),
    ("fors", fors),
    # `np.r_[...]`/`np.c_[...]` become ag__ calls (NumPy's objects take no traced item).
    ("index_tricks", index_tricks),
    # `TABLE[i]` with i traced becomes an ag__ call (a NumPy array takes no traced index).
    ("item_reads", item_reads),
    # `u.shape` of a traced array with an unknown dimension: that dimension traced.
    ("shapes", shapes),
    # Last: every remaining call goes through converted_call.
    ("calls", calls),
)
