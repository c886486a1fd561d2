"""A small grammar of random NumPy programs with Python control flow, as source text.

`programs()` is a Hypothesis strategy for `Program`s: the source of a module
defining `f(n, k, x, p)` that mixes nested `if`/`elif`/`else`, bounded `while`
loops (also `while True:` with a `break`), `for` loops over `range` (traced and
Python bounds, steps up and down), over arrays, `enumerate` and `zip`, over Python
lists and tuples (unrolled), loop `else` blocks, `with` blocks (a
`contextlib.nullcontext()` or `np.errstate(...)`), `try`/`finally` around
straight-line code, `break`, `continue`, early `return`s (also inside `with`
and `try` bodies), `a if c else b`, comparison chains and in-place updates. Every
program is valid Python that returns on every path, and every run of it
terminates:

- parameters: `n`, `k` are int64 0-d values (traced), `x` a float64 array of
  shape (3,) (traced), `p` a Python int (static: part of the cache key);
- locals `a`, `b` (int64), `y` (float64, shape (3,)), `s` (a float64 scalar)
  and `done` (a flag, starting as Python `False`) are bound at the top, so
  every variable read is bound on every path; loop counters and loop targets
  are read only inside their own loop;
- all integer state is np.int64 (an int expression that may be a Python int
  in eager NumPy, such as a `range` target, is added to `np.int64(0)` before it
  is stored), all array state float64 of shape (3,), so branches agree on dtypes;
- every `while` loop has its own counter, incremented by its first statement,
  and a hard bound (`i0 < 8`), so no loop runs more than 8 times; `range`
  bounds are small too (at most `n`, 5, or an enclosing loop's counter);
- a program with in-place updates (`x *= 0.5`) makes no views (`x[::-1]`);
- every path returns `(int64 value, float64 array)`, or in some programs every
  path returns one float64 array.

The constructs of issue #12 are drawn per program where `Features` has them
on (`generated_settings.GRAMMAR`): closures `peek()`/`shift()` read where
blocks rebind `a`, `b`, `k`, `y`, `s`; views updated in place (`w = y[1:]` at
the top, or `w0 = y[1:]` in a block, then `w += 0.5` in a block); item writes
into `x`, `y` and a local matrix `M`; a local array `t` updated only in place;
a Python number `q` (int, float, bool or complex) as state, added to every
result through float32 (where weak and strong typing round differently); a
list `L` appended in blocks and read at the end by `np.sum`, `np.stack`,
`sum`, `len`, a `for`, or returned (`(result, L)`). The writes and views come
only in programs with in-place updates, which make no other views.

The grammar is a handful of methods of `_Generator`, one per syntactic
category (`int_expr`, `array_expr`, `condition`, `statement`, ...), with depth
limits and a statement budget (`MAX_STATEMENTS`).

`Features` switches parts of the grammar off; `test_generated_programs.py` can
use it to leave out constructs behind open bugs (each has an xfail regression
test there).
"""
from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

MAX_DEPTH = 3          # statements nested at most this deep (if/while/for)
MAX_LOOP_NESTING = 2   # loops inside loops
MAX_EXPR_DEPTH = 2
WHILE_BOUND = 8        # hard bound on every while loop's counter
MAX_STATEMENTS = 24    # statements in one program (conversion time grows with size)

INT_VARS = ("k", "a", "b")          # int64 state, assignable
ARRAY_VARS = ("x", "y")             # float64[3] state, assignable
FLOAT_VAR = "s"                     # float64 scalar state, assignable
FLAG_VAR = "done"                   # a flag: starts as Python False, may become traced


@dataclasses.dataclass(frozen=True)
class Features:
    """Parts of the grammar that may be switched off."""
    early_return: bool = True        # `return` before the end of the function
    return_in_loop: bool = True      # `return` inside a loop body
    break_continue: bool = True
    while_loops: bool = True
    for_range: bool = True
    for_array: bool = True           # `for v in x:`
    for_zip: bool = True             # `for u, v in zip(x, y):`
    for_python: bool = True          # `for w in (0.5, s, -1.0):`, `for j in (2, 0, 1):` (unrolled)
    range_down: bool = True          # `range(n, 0, -1)`: a negative step
    comparison_chains: bool = True   # `a < b <= c`
    python_counter: bool = True      # `i0 = 0` (a Python int) as a while counter
    loop_else: bool = True           # `while ...: ... else: ...`, `for ...: ... else: ...`
    jump_in_loop_else: bool = True   # `break`/`continue` of an outer loop in a loop's `else`
    return_in_loop_with_else: bool = True  # `return` in the body of a loop that has an `else`
    if_expressions: bool = True      # `a if c else b`
    while_true: bool = True          # `while True:` left by a `break` on its counter
    in_place: bool = True            # `x *= c`, `y += x` (in programs that make no views)
    in_place_aliases: bool = True    # ... also where two names may be bound to one array
    with_blocks: bool = True         # `with contextlib.nullcontext():`, `with np.errstate(...):`
    try_finally: bool = True         # `try:` straight-line code `finally:` an update of `s`
    # Constructs of issue #12 (`generated_settings.GRAMMAR` switches them off while they fail):
    closures: bool = True            # `def peek(): return a + b`, `shift = lambda: y + s` called
    #                                  where a staged block rebinds the names they read
    views: bool = True               # `w0 = y[1:]` then `w0 += 0.5`: an in-place update of a view
    item_writes: bool = True         # `y[k % 3] = s`, `y[1:] -= x[:2]`, `y[y > 0.5] = 0.0`,
    #                                  `M[j % 3, :] -= y` on a local matrix `M`
    local_arrays: bool = True        # `t = np.zeros(3)` made in f, then `t += ...`, `t.fill(c)`,
    #                                  `np.add(t, y, out=t)`, `t.sort()`
    python_numbers: bool = True      # `q`, a Python int, float, bool or complex, as loop state
    list_appends: bool = True        # `L.append(...)` in loops and branches, `L` read by np.sum(L),
    #                                  np.stack(L), sum(L), len(L), `for v in L`, or `return L`


@dataclasses.dataclass(frozen=True)
class IntExpr:
    src: str
    numpy: bool      # an np.int64 (not a Python int) when the function runs eagerly


@dataclasses.dataclass
class _Scope:
    """What a statement may read and do where it is generated."""
    depth: int = 0
    loops: int = 0                               # enclosing loops
    ints: tuple = ()                             # extra readable int names: (name, numpy)
    floats: tuple = ()                           # readable float64 scalar names
    jumps: bool = True                           # `break`/`continue` allowed (in a loop)
    returns: bool = True                         # `return` allowed
    compound: bool = True                        # `if`, loops, `with`, `try` allowed

    def inner(self, loop=False, ints=(), floats=(), jumps=True, returns=True, compound=True):
        return _Scope(self.depth + 1, self.loops + loop, self.ints + tuple(ints),
                      self.floats + tuple(floats), loop or (jumps and self.jumps),
                      returns and self.returns, compound and self.compound)


@dataclasses.dataclass(frozen=True)
class Program:
    source: str
    p: int           # the Python-int argument, fixed for every call of one program
    returns_tuple: bool  # every path returns `(int64, float64[3])`, else one float64[3]
    returns_list: bool = False  # ... paired with the list `L`: `(result, L)`

    def __str__(self):
        return self.source


class _Generator:
    def __init__(self, draw, features: Features, returns_tuple: bool, in_place: bool):
        self.draw = draw
        self.features = features
        self.returns_tuple = returns_tuple
        # In-place updates change every name bound to the same array, as in NumPy; a
        # program that has them makes no views (`x[::-1]`), which the graph refuses to update.
        self.in_place = in_place
        self.counters = 0
        self.statements = 0
        # The #12 constructs this program holds (each drawn once per program, where on).
        self.closures = False        # `peek()` (int) and `shift()` (array) may be read
        self.matrix = False          # the local matrix `M` exists (item writes)
        self.local_array = False     # the local array `t` exists (updated only in place)
        self.view = False            # `w`, a view of `x` or `y` made at the top, exists
        self.number_kind = None      # the kind of the Python number `q`: int, float, bool, complex
        self.list_kind = None        # how `L` is read at the end: "np.sum", "return", ...

    def array_names(self) -> tuple:
        """The array names an expression may read."""
        return ARRAY_VARS + (("t",) if self.local_array else ())

    def choice(self, options):
        return self.draw(st.sampled_from(options))

    def int_literal(self):
        return str(self.draw(st.integers(0, 5)))

    def float_literal(self):
        return self.choice(["0.0", "0.5", "1.0", "-0.5", "2.0", "-1.5"])

    # --- expressions -------------------------------------------------------

    def int_expr(self, scope, depth=0) -> IntExpr:
        leaf = depth >= MAX_EXPR_DEPTH or self.draw(st.booleans())
        if leaf:
            atoms = [IntExpr(v, True) for v in ("n",) + INT_VARS]
            atoms += [IntExpr(name, numpy) for name, numpy in scope.ints]
            atoms += [IntExpr("p", False), IntExpr(self.int_literal(), False)]
            if self.closures and self.draw(st.integers(0, 2)) == 0:
                return IntExpr("peek()", True)  # often, so that it follows a rebinding
            return self.choice(atoms)
        kind = self.choice(["add", "sub", "mul", "floordiv", "mod", "maximum", "minimum",
                            "count", "argmax"]
                           + (["ifexp"] if self.features.if_expressions else []))
        if kind == "ifexp":
            left, right = self.int_expr(scope, depth + 1), self.int_expr(scope, depth + 1)
            return IntExpr(f"({left.src} if {self.condition(scope, 1)} else {right.src})",
                           left.numpy and right.numpy)
        if kind in ("count", "argmax"):
            arr = self.array_expr(scope, depth + 1)
            return IntExpr(f"np.sum({arr} > {self.float_literal()})" if kind == "count"
                           else f"np.argmax({arr})", True)
        left = self.int_expr(scope, depth + 1)
        if kind in ("mul", "floordiv", "mod"):
            right = {"mul": self.choice(["2", "3", "-1"]), "floordiv": "2",
                     "mod": self.choice(["2", "3"])}[kind]
            op = {"mul": "*", "floordiv": "//", "mod": "%"}[kind]
            return IntExpr(f"({left.src} {op} {right})", left.numpy)
        right = self.int_expr(scope, depth + 1)
        if kind in ("maximum", "minimum"):
            return IntExpr(f"np.{kind}({left.src}, {right.src})", True)
        op = "+" if kind == "add" else "-"
        return IntExpr(f"({left.src} {op} {right.src})", left.numpy or right.numpy)

    def int64_expr(self, scope) -> str:
        """An int expression that is an np.int64 when run eagerly (storable as state)."""
        e = self.int_expr(scope)
        if e.numpy:
            return e.src
        return f"np.int64({e.src})" if e.src.isdigit() else f"np.int64(0) + {e.src}"

    def float_scalar(self, scope, depth=0) -> str:
        kind = self.choice(["sum", "max", "item", "mean", "var", "index"])
        if kind == "var":
            return self.choice((FLOAT_VAR,) + scope.floats)
        if kind == "index":  # an index known only when the graph runs
            index = self.int_expr(scope, MAX_EXPR_DEPTH - 1).src
            return f"{self.choice(ARRAY_VARS)}[{index} % 3]"
        arr = self.array_expr(scope, depth + 1) if depth < MAX_EXPR_DEPTH else \
            self.choice(ARRAY_VARS)
        if kind == "item":
            return f"{arr}[{self.choice(['0', '1', '2', '-1'])}]" if arr in ARRAY_VARS \
                else f"({arr})[0]"
        return f"np.mean({arr})" if kind == "mean" else f"({arr}).{kind}()" \
            if arr not in ARRAY_VARS else f"{arr}.{kind}()"

    def array_atom(self) -> str:
        if self.closures and self.draw(st.integers(0, 2)) == 0:
            return "shift()"
        atoms = list(self.array_names())
        atoms += ["M.sum(axis=0)", "M[1]"] if self.matrix else []
        return self.choice(atoms)

    def array_expr(self, scope, depth=0) -> str:
        if depth >= MAX_EXPR_DEPTH or self.draw(st.integers(0, 2)) == 0:
            return self.array_atom()
        kind = self.choice(["add", "sub", "scale", "tanh", "maximum", "where", "int",
                            "scalar", "abs"] + ([] if self.in_place else ["reverse"])
                           + (["ifexp"] if self.features.if_expressions else []))
        a = self.array_expr(scope, depth + 1)
        if kind == "ifexp":
            return f"({a} if {self.condition(scope, 1)} else {self.array_expr(scope, depth + 1)})"
        if kind in ("add", "sub"):
            return f"({a} {'+' if kind == 'add' else '-'} {self.array_expr(scope, depth + 1)})"
        if kind == "scale":
            return f"({a} * {self.choice(['0.5', '2.0', '-1.0'])})"
        if kind in ("tanh", "abs"):
            return f"np.{kind}({a})"
        if kind == "maximum":
            b = self.array_expr(scope, depth + 1)
            return f"np.{self.choice(['maximum', 'minimum'])}({a}, {b})"
        if kind == "where":
            return (f"np.where({a} > {self.float_literal()}, {self.array_expr(scope, depth + 1)}, "
                    f"{self.array_expr(scope, depth + 1)})")
        if kind == "int":
            return f"({a} {self.choice(['+', '*'])} {self.int_expr(scope, MAX_EXPR_DEPTH - 1).src})"
        if kind == "scalar":
            return f"({a} - {self.float_scalar(scope, depth + 1)})"
        return f"{a}[::-1]"

    def condition(self, scope, depth=0) -> str:
        kind = self.choice(["compare", "parity", "float", "python", "any", "flag"]
                           + (["number"] if self.number_kind else [])
                           + (["not", "and", "or"] if depth < 1 else []))
        if kind == "flag":
            return self.choice([FLAG_VAR, f"not {FLAG_VAR}"])
        if kind == "number":
            return {"int": f"q {self.choice(['<', '>', '=='])} {self.int_literal()}",
                    "float": f"q {self.choice(['<', '>'])} {self.float_literal()}",
                    "bool": self.choice(["q", "not q"]),
                    "complex": f"q.real {self.choice(['<', '>'])} {self.float_literal()}",
                    }[self.number_kind]
        if kind == "compare":
            op = self.choice(["<", "<=", ">", ">=", "==", "!="])
            compare = f"{self.int_expr(scope, 1).src} {op} {self.int_expr(scope, 1).src}"
            if self.features.comparison_chains and self.draw(st.integers(0, 3)) == 0:
                compare += f" {self.choice(['<', '<=', '!='])} {self.int_expr(scope, 1).src}"
            return compare
        if kind == "parity":
            return f"{self.int_expr(scope, 1).src} % 2 == {self.choice(['0', '1'])}"
        if kind == "float":
            return f"{self.float_scalar(scope)} {self.choice(['<', '>'])} {self.float_literal()}"
        if kind == "python":  # a condition on Python values only: not staged
            return f"p {self.choice(['<', '>', '=='])} {self.draw(st.integers(0, 3))}"
        if kind == "any":
            arr = self.array_expr(scope, 1)
            return f"np.{self.choice(['any', 'all'])}({arr} > {self.float_literal()})"
        if kind == "not":
            return f"not ({self.condition(scope, depth + 1)})"
        op = kind
        return f"({self.condition(scope, depth + 1)}) {op} ({self.condition(scope, depth + 1)})"

    # --- statements --------------------------------------------------------

    def block(self, scope, indent) -> list[str]:
        """One to three statements; a jump (break, continue, return) ends the block."""
        lines = []
        for i in range(self.draw(st.integers(1, 3))):
            if i and self.statements >= MAX_STATEMENTS:
                break
            statement, jumped = self.statement(scope, indent)
            lines += statement
            if jumped:
                break
        return lines

    def statement(self, scope, indent) -> tuple[list[str], bool]:
        f = self.features
        pad = "    " * indent
        self.statements += 1
        kinds = ["assign_int", "assign_array", "augassign", "assign_float", "assign_flag"]
        if scope.depth < MAX_DEPTH and self.statements < MAX_STATEMENTS and scope.compound:
            kinds += ["if", "if_else", "if_elif"] + (["with"] if f.with_blocks else []) + \
                (["try_finally"] if f.try_finally else [])
            if scope.loops < MAX_LOOP_NESTING:
                kinds += (["while"] if f.while_loops else []) + \
                         (["for_range"] if f.for_range else []) + \
                         (["for_array"] if f.for_array else []) + \
                         (["for_zip"] if f.for_zip else []) + \
                         (["for_python"] if f.for_python else [])
        if scope.loops and scope.jumps and f.break_continue:
            kinds += ["break", "continue"]
        kinds += self.issue12_kinds(scope)
        if f.early_return and scope.depth and scope.returns and \
                (f.return_in_loop or not scope.loops):
            kinds += ["return"]
        kind = self.choice(kinds)
        if kind == "assign_int":
            return [f"{pad}{self.choice(INT_VARS)} = {self.int64_expr(scope)}"], False
        if kind == "assign_array":
            value = self.array_expr(scope)
            if self.in_place and not f.in_place_aliases and (
                    value in self.array_names() or value.startswith(("M[", "shift("))
                    or value.startswith("(") and " if " in value):
                value = f"np.copy({value})"  # `y = x` would bind both names to one array
            return [f"{pad}{self.choice(ARRAY_VARS)} = {value}"], False
        if kind == "assign_float":
            value = self.float_scalar(scope)
            op = self.choice(["=", "= s +", "= s -", "= s *", "+=", "*="])
            return [f"{pad}{FLOAT_VAR} {op} {value}"], False
        if kind == "assign_flag":
            value = self.choice(["True", "False", self.condition(scope, 1)])
            return [f"{pad}{FLAG_VAR} = {value}"], False
        if kind == "augassign":
            if self.draw(st.booleans()):
                return [f"{pad}{self.choice(INT_VARS)} += {self.int_expr(scope, 1).src}"], False
            var = self.choice(ARRAY_VARS)
            if not self.in_place:
                return [f"{pad}{var} = {var} * {self.choice(['0.5', '-1.0', '1.5'])}"], False
            op = self.choice(["*=", "+=", "-="])
            value = self.choice(["0.5", "-1.0", "1.5"]) if op == "*=" else self.choice(
                [self.array_expr(scope, 1), self.int_expr(scope, 1).src])
            return [f"{pad}{var} {op} {value}"], False
        if kind in ISSUE12_STATEMENTS:
            return getattr(self, kind)(scope, pad), False
        if kind in ("break", "continue"):
            return [f"{pad}{kind}"], True
        if kind == "return":
            return [f"{pad}return {self.result(scope)}"], True
        if kind.startswith("if"):
            return self.if_statement(kind, scope, indent), False
        if kind == "with":
            manager = self.choice(["contextlib.nullcontext()", "np.errstate(all='ignore')",
                                   "np.errstate(divide='ignore', invalid='ignore')"])
            return [f"{pad}with {manager}:"] + self.block(scope.inner(), indent + 1), False
        if kind == "try_finally":  # `try` around `if` or loops is refused: straight-line only
            body = self.block(scope.inner(compound=False), indent + 1)
            return [f"{pad}try:"] + body + [f"{pad}finally:",
                                            f"{pad}    {FLOAT_VAR} = {FLOAT_VAR} + 1.0"], False
        if kind == "while":
            return self.while_statement(scope, indent), False
        return self.for_statement(kind, scope, indent), False

    def if_statement(self, kind, scope, indent):
        pad = "    " * indent
        lines = [f"{pad}if {self.condition(scope)}:"] + self.block(scope.inner(), indent + 1)
        for _ in range(self.draw(st.integers(1, 2)) if kind == "if_elif" else 0):
            lines += [f"{pad}elif {self.condition(scope)}:"] + self.block(scope.inner(), indent + 1)
        if kind != "if":
            lines += [f"{pad}else:"] + self.block(scope.inner(), indent + 1)
        return lines

    def while_statement(self, scope, indent):
        pad = "    " * indent
        counter = f"i{self.counters}"
        self.counters += 1
        numpy = not self.features.python_counter or self.draw(st.booleans())
        bound = self.choice(["n", "p", "k", str(self.draw(st.integers(0, 4)))])
        lines = [f"{pad}{counter} = {'np.int64(0)' if numpy else '0'}"]
        features = self.features
        if features.while_true and features.break_continue and self.draw(st.booleans()):
            lines += [f"{pad}while True:",
                      f"{pad}    {counter} = {counter} + 1",
                      f"{pad}    if {counter} > {bound} or {counter} > {WHILE_BOUND}:",
                      f"{pad}        break"]
        else:
            extra = self.choice(["", f" and {self.condition(scope, 1)}"])
            lines += [f"{pad}while {counter} < {bound} and {counter} < {WHILE_BOUND}{extra}:",
                      f"{pad}    {counter} = {counter} + 1"]
        has_else = self.has_else()
        lines += self.block(scope.inner(loop=True, ints=[(counter, numpy)],
                                        returns=self.body_returns(has_else)), indent + 1)
        return lines + self.loop_else(has_else, scope, indent)

    def has_else(self) -> bool:
        return self.features.loop_else and self.draw(st.integers(0, 3)) == 0

    def body_returns(self, has_else) -> bool:
        return not has_else or self.features.return_in_loop_with_else

    def loop_else(self, has_else, scope, indent):
        if not has_else:
            return []
        # The `else` block is outside the loop: a jump there is the enclosing loop's.
        inner = scope.inner(jumps=self.features.jump_in_loop_else)
        return ["    " * indent + "else:"] + self.block(inner, indent + 1)

    def for_statement(self, kind, scope, indent):
        pad = "    " * indent
        target = f"j{self.counters}"
        self.counters += 1
        has_else = self.has_else()
        if kind == "for_zip":
            item = f"v{self.counters - 1}"
            header = f"for {target}, {item} in zip({self.choice(ARRAY_VARS)}, " \
                     f"{self.choice(ARRAY_VARS)}):"
            inner = scope.inner(loop=True, floats=[target, item],
                                returns=self.body_returns(has_else))
        elif kind == "for_python" and self.draw(st.booleans()):
            # Floats: Python floats and traced scalars read when the loop starts.
            items = [self.choice(["0.5", "-1.0", FLOAT_VAR, "x[1]", "y.sum()"])
                     for _ in range(self.draw(st.integers(1, 3)))]
            header = f"for {target} in ({', '.join(items)},):"
            inner = scope.inner(loop=True, floats=[target], returns=self.body_returns(has_else))
        elif kind == "for_python":
            items = [self.int_literal() for _ in range(self.draw(st.integers(1, 3)))]
            listed = f"[{', '.join(items)}]"
            header = f"for {target} in {self.choice([listed, f'({listed[1:-1]},)'])}:"
            inner = scope.inner(loop=True, ints=[(target, False)],
                                returns=self.body_returns(has_else))
        elif kind == "for_array" and self.draw(st.booleans()):
            item = f"v{self.counters - 1}"
            header = f"for {target}, {item} in enumerate({self.choice(ARRAY_VARS)}):"
            inner = scope.inner(loop=True, ints=[(target, False)], floats=[item],
                                returns=self.body_returns(has_else))
        elif kind == "for_array":
            header = f"for {target} in {self.choice(ARRAY_VARS)}:"
            inner = scope.inner(loop=True, floats=[target], returns=self.body_returns(has_else))
        else:
            # Bounds stay small: an enclosing loop's counter or target is at most 8.
            outer = [name for name, _ in scope.ints]
            if outer and self.draw(st.booleans()):
                bounds = self.choice(outer + [f"{name}, n" for name in outer])
            else:
                bounds = self.choice(["n", "3", "p", "k % 4", "1, n", "n, 5", "0, n, 2"]
                                     + (["n, 0, -1", "k % 4, -1, -1", "4, p, -2"]
                                        if self.features.range_down else []))
            header = f"for {target} in range({bounds}):"
            # A range target is a Python int when run eagerly, traced or not in the graph.
            inner = scope.inner(loop=True, ints=[(target, False)],
                                returns=self.body_returns(has_else))
        return [pad + header] + self.block(inner, indent + 1) + \
            self.loop_else(has_else, scope, indent)

    def result(self, scope) -> str:
        # Through float32, where a weak Python number and a float64 one round differently.
        number = {None: "", "complex": " + np.abs(np.complex64(1) * q)"}.get(
            self.number_kind, " + np.float32(1.0) * q")
        if self.returns_tuple:
            value = f"({self.int64_expr(scope)}, {self.array_expr(scope)}{number})"
        else:
            value = f"{self.array_expr(scope)} + {self.int_expr(scope, 1).src}{number}"
        return f"({value}, L)" if self.list_kind == "return" else value

    # --- the constructs of issue #12 -----------------------------------------

    def issue12_kinds(self, scope) -> list[str]:
        """The statement kinds of the #12 constructs this program holds, where they may go."""
        kinds = []
        if self.in_place and self.features.views:
            kinds += ["view_update"]
        if self.in_place and self.features.item_writes:
            kinds += ["item_write"]
        if self.local_array:
            kinds += ["local_array_update"] * 3
        if self.number_kind:
            kinds += ["number_update"] * 3  # often, so that loops carry it
        if self.list_kind and (scope.loops or scope.depth):
            kinds += ["list_append"] * 2
        return kinds

    def view_update(self, scope, pad) -> list[str]:
        op = self.choice(["+=", "*=", "-="])
        value = self.choice(['0.5', '-1.0', '2.0'])
        if self.view and self.draw(st.booleans()):  # the view made at the top
            return [f"{pad}w {op} {value}"]
        view = f"w{self.counters}"
        self.counters += 1
        return [f"{pad}{view} = {self.choice(ARRAY_VARS)}{self.choice(VIEW_INDEXES)}",
                f"{pad}{view} {op} {value}"]

    def item_write(self, scope, pad) -> list[str]:
        var = self.choice(ARRAY_VARS)
        index = f"{self.int_expr(scope, 1).src} % 3"
        kind = self.choice(["set", "add", "slice", "mask"] + (["row", "column"] if self.matrix
                                                              else []))
        if kind == "set":
            return [f"{pad}{var}[{index}] = {self.float_scalar(scope, 1)}"]
        if kind == "add":
            return [f"{pad}{var}[{index}] {self.choice(['+=', '-=', '*='])} "
                    f"{self.float_scalar(scope, 1)}"]
        if kind == "slice":
            return [f"{pad}{var}[1:] -= {self.choice(ARRAY_VARS)}[:2]"]
        if kind == "mask":
            return [f"{pad}{var}[{var} > {self.float_literal()}] = {self.float_literal()}"]
        if kind == "row":
            return [f"{pad}M[{index}, :] -= {self.array_expr(scope, 1)}"]
        return [f"{pad}M[:, {index}] = {self.array_expr(scope, 1)}"]

    def local_array_update(self, scope, pad) -> list[str]:
        kind = self.choice(["add", "scale", "fill", "out", "sort"])
        if kind == "add":
            return [f"{pad}t {self.choice(['+=', '-='])} "
                    f"{self.choice([self.array_expr(scope, 1), self.int_expr(scope, 1).src])}"]
        if kind == "scale":
            return [f"{pad}t *= {self.choice(['0.5', '-1.0', '1.5'])}"]
        if kind == "fill":
            return [f"{pad}t.fill({self.choice([self.float_literal(), FLOAT_VAR])})"]
        if kind == "out":
            return [f"{pad}np.{self.choice(['add', 'multiply', 'maximum'])}"
                    f"(t, {self.array_expr(scope, 1)}, out=t)"]
        return [f"{pad}t.sort()"]

    def number_update(self, scope, pad) -> list[str]:
        options = {
            "int": ["q += 1", "q = q * 2 - 1", "q //= 2", "q = q * 3 + 1", "q = q % 3",
                    f"q = q + {self.int_expr(scope, 1).src}",
                    "q = (q * 4096 + 1) % 10**21"],  # beyond int64 after a few steps
            "float": ["q += 0.5", "q = q * 1.5", "q /= 2.0", "q = q - 0.1",
                      f"q = q + {self.float_scalar(scope, 1)}"],
            "bool": ["q = not q", f"q = q or ({self.condition(scope, 1)})",
                     f"q = {self.condition(scope, 1)}"],
            "complex": ["q = q * 1j + 1", "q += 0.5j", f"q = q + {self.float_scalar(scope, 1)}",
                        "q = q.conjugate()"],
        }[self.number_kind]
        return [pad + self.choice(options)]

    def list_append(self, scope, pad) -> list[str]:
        value = self.choice([self.float_scalar(scope, 1), self.int64_expr(scope)])
        return [f"{pad}L.append({value})"]

    def list_read(self) -> list[str]:
        """Where `L` is read before the last `return` (`return L` is in `result`)."""
        return {"np.sum": ["    s = s + np.sum(L)"],
                "np.stack": ["    y = y + np.stack(L).mean()"],
                "sum": ["    s = s + sum(L)"],
                "len": ["    a = a + len(L)"],
                "for": ["    for v in L:", "        s = s + v"],
                "return": []}[self.list_kind]


VIEW_INDEXES = ("[1:]", "[:2]", "[::-1]", "[::2]", "[:]")
ISSUE12_STATEMENTS = ("view_update", "item_write", "local_array_update", "number_update",
                      "list_append")


@st.composite
def programs(draw, features: Features = Features()) -> Program:
    gen = _Generator(draw, features, returns_tuple=draw(st.booleans()),
                     in_place=features.in_place and draw(st.booleans()))
    scope = _Scope()
    y_values = ["x * 0.5", "np.tanh(x)"] + ([] if gen.in_place else ["x[::-1]"])
    body = [f"    a = np.int64({gen.int_literal()})",
            f"    b = {gen.choice(['k + 1', 'n * 2', 'np.int64(0) + p'])}",
            f"    y = {gen.choice(y_values)}",
            f"    {FLOAT_VAR} = {gen.choice(['x.sum()', 'np.float64(0.0)', 'x[0]'])}",
            f"    {FLAG_VAR} = False"]
    body += _issue12_locals(draw, gen, features)
    body += gen.block(scope, 1)
    body += gen.list_read() if gen.list_kind else []
    body += [f"    return {gen.result(scope)}"]
    source = "import contextlib\n\nimport numpy as np\n\n\ndef f(n, k, x, p):\n" + \
        "\n".join(body) + "\n"
    return Program(source, draw(st.integers(0, 3)), gen.returns_tuple,
                   returns_list=gen.list_kind == "return")


def _issue12_locals(draw, gen, features) -> list[str]:
    """Draws which #12 constructs the program holds; the locals they need, bound at the top."""
    lines = []
    if features.closures and draw(st.booleans()):
        gen.closures = True
        lines += ["    def peek():",
                  f"        return {gen.choice(['a + b', 'a', 'b * 2', 'k + a'])}",
                  f"    shift = lambda: y + {FLOAT_VAR}"]
    if gen.in_place and features.views and draw(st.booleans()):
        gen.view = True  # updated in place in later blocks, staged or not
        lines += [f"    w = {gen.choice(ARRAY_VARS)}{gen.choice(VIEW_INDEXES)}"]
    if gen.in_place and features.item_writes and draw(st.booleans()):
        gen.matrix = True
        lines += ["    M = np.zeros((3, 3)) + x"]
    if gen.in_place and features.local_arrays and draw(st.booleans()):
        gen.local_array = True
        lines += [f"    t = {gen.choice(['np.zeros(3)', 'np.ones_like(x)', 'x.copy()'])}"]
    if features.python_numbers and draw(st.booleans()):
        gen.number_kind = gen.choice(["int", "float", "bool", "complex"])
        lines += ["    q = " + {"int": "0", "float": "0.0", "bool": "False",
                                 "complex": "0j"}[gen.number_kind]]
    if features.list_appends and draw(st.booleans()):
        gen.list_kind = gen.choice(["np.sum", "np.stack", "sum", "len", "for", "return"])
        # np.stack needs an element: the others start from an empty list as often.
        empty = gen.list_kind != "np.stack" and draw(st.booleans())
        lines += ["    L = []" if empty else f"    L = [{FLOAT_VAR}]"]
    return lines


def arguments():
    """One set of traced arguments `(n, k, x)`: int64, int64, float64[3]."""
    halves = st.integers(-4, 4).map(lambda v: v / 2)
    return st.tuples(st.integers(-1, 7), st.integers(-6, 6),
                     st.lists(halves, min_size=3, max_size=3))
