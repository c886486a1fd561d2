"""A small grammar of random stateful programs over `ag.Variable`s, as source text.

`programs()` is a Hypothesis strategy for `Program`s: the source of a module
defining `f(s, n, x)`, where `s` holds the variables (`Program.variables`),
`n` is an int64 scalar and `x` a float64 array of shape (3,). Variables:

- `s.a` (float64, shape (3,)) and `s.c` (an int64 scalar counter), always;
- sometimes `s.b` (float64, shape (3,)) and/or `s.d` (a float32 scalar).

Statements: `assign`, `assign_add`, `assign_sub` (their results used or not,
also inside expressions, so that reads and writes interleave within one),
locals `t` (float64[3]), `u` (float64 scalar) and `k` (int64 scalar) bound at
the top, `print` of reads, `assert`s that always hold, traced `if`/`else`
(`np.sum(s.a) > c`, `x[0] > c`, `n % 2 == 0`, ...), `while` loops with a counter
and a hard bound (`i0 < 4`, some also reading a variable in their test),
`for` over `range(n)` and `range(3)`, `break` and `continue` under an `if` in
loops, calls of a plain helper `h(s, v)` and of a converted one
`g = ag.convert(g_py)` (both read and write variables), and early `return`s.
Every path returns `(float64[3], float64 scalar, int64 scalar)`. Programs are
valid, terminating eager Python: values are scaled by 0.5, 2 or -1, never
multiplied by each other, so they stay finite.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import strategies as st

MAX_DEPTH = 3          # statements nested at most this deep (if/while/for)
MAX_LOOP_NESTING = 2
MAX_EXPR_DEPTH = 2
WHILE_BOUND = 4        # hard bound on every while loop's counter
MAX_STATEMENTS = 14    # statements in `f` (conversion time grows with size)

VECTOR_VARS = ("a", "b")   # float64[3] variables
COUNTER = "c"              # int64 scalar
SCALAR32 = "d"             # float32 scalar


@dataclasses.dataclass(frozen=True)
class Program:
    source: str
    variables: tuple       # ((name, initial value), ...) of the variables `s` holds
    helpers: tuple         # the helpers defined: "h" (plain), "g" (converted) or both

    def __str__(self):
        return self.source


@dataclasses.dataclass
class _Scope:
    """What a statement may read and do where it is generated."""
    vectors: tuple = ("x", "t")     # float64[3] locals
    floats: tuple = ("u",)          # float64 scalar locals
    ints: tuple = (("k", True), ("n", True))  # int locals: (name, an np.int64 eagerly)
    depth: int = 0
    loops: int = 0
    returns: bool = False           # `return` allowed (inside f's if/loop bodies)
    calls: bool = True              # helper calls allowed (not inside the helpers)

    def inner(self, loop=False, ints=()):
        return dataclasses.replace(self, depth=self.depth + 1, loops=self.loops + loop,
                                   ints=self.ints + tuple(ints),
                                   returns=self.calls)  # f returns early, helpers do not


class _Generator:
    def __init__(self, draw, variables, helpers):
        self.draw = draw
        self.vectors = tuple(v for v in VECTOR_VARS if v in variables)
        self.has_d = SCALAR32 in variables
        self.helpers = helpers
        self.counters = 0
        self.statements = 0

    def choice(self, options):
        return self.draw(st.sampled_from(list(options)))

    def coin(self, p_true=0.5):
        return self.draw(st.integers(0, 99)) < 100 * p_true

    def float_literal(self):
        return self.choice(["0.0", "0.5", "1.0", "-0.5", "2.0", "-1.5"])

    def var(self):
        return "s." + self.choice(self.vectors)

    # --- expressions -------------------------------------------------------

    def vector(self, scope, depth=0, writes=False) -> str:
        """A float64[3] expression; with `writes`, it may assign a variable on the way."""
        if depth >= MAX_EXPR_DEPTH or self.coin(0.3):
            return self.choice(list(scope.vectors) + [f"{self.var()}.read_value()"])
        kinds = ["add", "sub", "scale", "tanh", "maximum", "where", "scalar", "var_scale",
                 "var_reverse"]
        if writes:
            kinds += ["assign"] * 5
        if scope.calls and "g" in self.helpers:
            kinds += ["g"]
        kind = self.choice(kinds)
        if kind == "assign":
            return self.assign_expr(scope, depth)
        if kind == "g":
            return f"g(s, {self.vector(scope, depth + 1)})"
        if kind == "var_scale":
            return f"({self.var()} * {self.choice(['0.5', '2.0', '-1.0'])})"
        if kind == "var_reverse":
            return f"{self.var()}[::-1]"
        a = self.vector(scope, depth + 1, writes)
        if kind in ("add", "sub"):
            op = "+" if kind == "add" else "-"
            b = self.choice([self.vector(scope, depth + 1, writes), self.var()])
            return f"({a} {op} {b})" if self.coin() else f"({b} {op} {a})"
        if kind == "scale":
            return f"({a} * {self.choice(['0.5', '2.0', '-1.0'])})"
        if kind == "tanh":
            return f"np.tanh({a})"
        if kind == "maximum":
            fn = self.choice(["maximum", "minimum"])
            return f"np.{fn}({a}, {self.choice([self.vector(scope, depth + 1), self.var()])})"
        if kind == "where":
            return (f"np.where({self.var()} > {self.float_literal()}, {a}, "
                    f"{self.vector(scope, depth + 1)})")
        return f"({a} + {self.scalar(scope, depth + 1)})"

    def assign_expr(self, scope, depth) -> str:
        """`s.v.assign(...)` (or `_add`, `_sub`) of a vector variable, as an expression."""
        method = self.choice(["assign", "assign_add", "assign_sub"])
        writes = self.coin(0.3)  # a write inside the value: `s.a.assign_add(s.b.assign(x))`
        value = self.vector(scope, depth + 1, writes) if self.coin(0.8) else \
            self.scalar(scope, depth + 1, writes)
        return f"{self.var()}.{method}({value})"

    def scalar(self, scope, depth=0, writes=False) -> str:
        """A float64 scalar expression."""
        if depth >= MAX_EXPR_DEPTH or self.coin(0.3):
            items = [f"{v}[{i}]" for v in scope.vectors[:1] for i in (0, 2)]
            return self.choice(list(scope.floats) + items + [f"{self.var()}[1]"])
        kinds = ["sum", "max", "index", "traced_index", "add", "scale"]
        if self.has_d:
            kinds += ["d"] + (["d_write"] * 3 if writes else [])
        if scope.calls and "h" in self.helpers:
            kinds += ["h"]
        kind = self.choice(kinds)
        if kind in ("sum", "max"):
            return f"np.{kind}({self.vector(scope, depth + 1, writes)})"
        if kind == "index":
            return f"{self.var()}[{self.choice(['0', '1', '2', '-1'])}]"
        if kind == "traced_index":
            return f"{self.var()}[{self.int_expr(scope, MAX_EXPR_DEPTH)} % 3]"
        if kind == "add":
            return f"({self.scalar(scope, depth + 1, writes)} + {self.scalar(scope, depth + 1)})"
        if kind == "scale":
            return f"({self.scalar(scope, depth + 1, writes)} * {self.choice(['0.5', '-1.0'])})"
        if kind == "d":
            return f"({self.scalar(scope, depth + 1)} + s.{SCALAR32})"
        if kind == "d_write":  # float64 + the float32 value stored
            method = self.choice(["assign", "assign_add", "assign_sub"])
            return f"({self.scalar(scope, depth + 1)} + s.{SCALAR32}.{method}" \
                   f"({self.scalar(scope, depth + 1)}))"
        return f"h(s, {self.vector(scope, depth + 1)})"

    def int_expr(self, scope, depth=0, numpy=True) -> str:
        """An int64 expression (with `numpy=False` possibly a Python int when run eagerly)."""
        atoms = [name for name, is_numpy in scope.ints if is_numpy or not numpy]
        if depth >= MAX_EXPR_DEPTH or self.coin(0.4):
            return self.choice(atoms + [f"s.{COUNTER}.read_value()"])
        kind = self.choice(["add", "mod", "counter", "count", "loop_target"])
        if kind == "add":
            return f"({self.int_expr(scope, depth + 1)} + {self.int_expr(scope, depth + 1, False)})"
        if kind == "mod":
            return f"({self.int_expr(scope, depth + 1)} % 3)"
        if kind == "counter":
            return f"(s.{COUNTER} + {self.int_expr(scope, depth + 1, False)})"
        if kind == "count":
            return f"np.sum({self.var()} > {self.float_literal()})"
        targets = [name for name, is_numpy in scope.ints if not is_numpy]
        if not targets:
            return self.choice(atoms or [f"s.{COUNTER}.read_value()"])
        return f"({self.choice(atoms)} + {self.choice(targets)})"

    def condition(self, scope, writes=False) -> str:
        kind = self.choice(["var_sum", "x", "parity", "counter", "float", "int", "not"])
        if kind == "var_sum":
            return f"np.sum({self.var() if self.coin() else self.vector(scope, 1, writes)}) " \
                   f"> {self.float_literal()}"
        if kind == "x":
            return f"{scope.vectors[0]}[{self.choice(['0', '1'])}] > {self.float_literal()}"
        if kind == "parity":
            return f"{self.int_expr(scope, MAX_EXPR_DEPTH)} % 2 == {self.choice(['0', '1'])}"
        if kind == "counter":
            return f"s.{COUNTER} % 2 == {self.choice(['0', '1'])}"
        if kind == "float":
            return f"{self.scalar(scope, 1, writes)} {self.choice(['<', '>'])} " \
                   f"{self.float_literal()}"
        if kind == "int":
            return f"{self.int_expr(scope, 1)} > {self.draw(st.integers(-1, 3))}"
        return f"not ({self.var()}[0] > {self.float_literal()})"

    # --- statements --------------------------------------------------------

    def block(self, scope, indent, max_statements=MAX_STATEMENTS) -> list[str]:
        """One to three statements; a jump (`return`, `break`, `continue`) ends the block."""
        lines = []
        for i in range(self.draw(st.integers(1, 3))):
            if i and self.statements >= max_statements:
                break
            statement, returned = self.statement(scope, indent, max_statements)
            lines += statement
            if returned:
                break
        return lines

    def statement(self, scope, indent, max_statements) -> tuple[list[str], bool]:
        pad = "    " * indent
        self.statements += 1
        kinds = ["write"] * 4 + ["counter", "print", "assert"]
        if self.has_d:
            kinds += ["write_d"]
        if scope.calls:  # in f, not in a helper: locals, loops and calls
            kinds += ["write_used"] * 2 + ["local"] + (["call"] if self.helpers else [])
        if scope.depth < MAX_DEPTH and self.statements < max_statements:
            kinds += ["if", "if_else"]
            if scope.loops < MAX_LOOP_NESTING and scope.calls:
                kinds += ["while", "for"]
        if scope.returns and scope.depth:
            kinds += ["return"]
        if scope.loops and scope.depth > scope.loops:  # inside an `if` inside a loop
            kinds += ["break", "continue"]
        kind = self.choice(kinds)
        if kind == "write":
            return [pad + self.assign_expr(scope, 0)], False
        if kind == "write_used":
            target = self.choice(["t", "u", "k"])
            if target == "t":
                value = self.vector(scope, 0, writes=True)
            elif target == "u":
                value = self.scalar(scope, 0, writes=True)
            else:
                value = f"s.{COUNTER}.{self.choice(['assign', 'assign_add'])}" \
                        f"({self.int_expr(scope, 1)})"
            return [f"{pad}{target} = {value}"], False
        if kind == "counter":
            method = self.choice(["assign", "assign_add", "assign_add", "assign_sub"])
            value = self.choice(["1", self.int_expr(scope, 1, numpy=method != "assign")])
            return [f"{pad}s.{COUNTER}.{method}({value})"], False
        if kind == "write_d":
            method = self.choice(["assign", "assign_add", "assign_sub"])
            value = self.choice([self.scalar(scope, 1), f"s.{SCALAR32} * 0.5"])
            return [f"{pad}s.{SCALAR32}.{method}({value})"], False
        if kind == "local":
            target = self.choice(["t", "u", "k"])
            value = {"t": self.vector, "u": self.scalar, "k": self.int_expr}[target](scope)
            return [f"{pad}{target} = {value}"], False
        if kind == "print":
            return [pad + self.print_statement(scope)], False
        if kind == "assert":
            return [pad + self.assert_statement(scope)], False
        if kind == "call":
            helper = self.choice(self.helpers)
            return [f"{pad}{helper}(s, {self.vector(scope, 1)})"], False
        if kind == "return":
            return [f"{pad}return {self.result(scope)}"], True
        if kind in ("break", "continue"):
            return [pad + kind], True
        if kind.startswith("if"):
            lines = [f"{pad}if {self.condition(scope, writes=True)}:"]
            lines += self.block(scope.inner(), indent + 1, max_statements)
            if kind == "if_else":
                lines += [f"{pad}else:"] + self.block(scope.inner(), indent + 1, max_statements)
            return lines, False
        counter = f"i{self.counters}"
        self.counters += 1
        if kind == "while":
            bound = self.choice(["n", str(WHILE_BOUND)])
            extra = self.choice(["", f" and np.sum(s.a) < {self.choice(['4.0', '8.0'])}",
                                 f" and s.{COUNTER} < 6"])
            lines = [f"{pad}{counter} = np.int64(0)",
                     f"{pad}while {counter} < {bound} and {counter} < {WHILE_BOUND}{extra}:",
                     f"{pad}    {counter} = {counter} + 1"]
            inner = scope.inner(loop=True, ints=[(counter, True)])
        else:
            lines = [f"{pad}for {counter} in range({self.choice(['n', '3'])}):"]
            inner = scope.inner(loop=True, ints=[(counter, False)])  # a Python int eagerly
        return lines + self.block(inner, indent + 1, max_statements), False

    def print_statement(self, scope) -> str:
        parts = []
        for _ in range(self.draw(st.integers(1, 2))):
            kind = self.choice(["vector", "scalar", "counter", "read", "local"]
                               + (["d"] if self.has_d else []))
            if kind == "vector":
                parts.append(self.vector(scope, 1))
            elif kind == "scalar":
                parts.append(self.scalar(scope, 1))
            elif kind == "counter":
                parts.append(f"s.{COUNTER}.read_value()")
            elif kind == "read":
                parts.append(f"{self.var()}.read_value()")
            elif kind == "d":
                parts.append(f"s.{SCALAR32}.read_value()")
            else:
                parts.append(self.choice(["t", "u", "k"] if scope.calls else scope.vectors))
        return f"print({self.choice(['', repr('p'), repr('at'), repr('v =')])}" \
               f"{', ' if parts else ''}{', '.join(parts)})".replace("(, ", "(")

    def assert_statement(self, scope) -> str:
        """An assert that holds for every value (NaN and infinities included)."""
        return self.choice([
            f"assert np.sum({self.var()} > 0.0) <= 3",
            f"assert s.{COUNTER} - s.{COUNTER} == 0, 'counter'",
            f"assert {self.int_expr(scope, 1)} * 0 == 0",
            f"assert np.sum(np.abs({self.vector(scope, 1)}) < 0.0) == 0, 'no negative abs'",
        ])

    def result(self, scope) -> str:
        return f"({self.vector(scope)}, {self.scalar(scope)}, {self.int_expr(scope)})"

    def helper(self, name, indent=1) -> list[str]:
        """The body of a helper `(s, v)`: reads and writes variables, returns one value."""
        scope = _Scope(vectors=("v",), floats=(), ints=(), calls=False)
        self.statements = 0
        lines = self.block(scope, indent, max_statements=3)
        value = self.vector(scope, 1) if name == "g" else self.scalar(scope, 1)
        return lines + [f"    return {value}"]


def initial_values(names):
    """A strategy for the variables' initial values, as `((name, value), ...)`."""
    halves = st.integers(-4, 4).map(lambda v: v / 2)
    vector = st.lists(halves, min_size=3, max_size=3).map(lambda v: np.array(v, np.float64))
    parts = {"a": vector, "b": vector, COUNTER: st.integers(-3, 3).map(np.int64),
             SCALAR32: halves.map(np.float32)}
    return st.tuples(*[st.tuples(st.just(n), parts[n]) for n in names])


@st.composite
def programs(draw) -> Program:
    names = ("a", COUNTER) + draw(st.sampled_from([(), ("b",), (SCALAR32,), ("b", SCALAR32)]))
    helpers = draw(st.sampled_from([(), ("h",), ("g",), ("h", "g")]))
    gen = _Generator(draw, names, helpers)
    source = ["import numpy as np", "", "import autograph as ag", "", ""]
    if "h" in helpers:
        source += ["def h(s, v):"] + gen.helper("h") + ["", ""]
    if "g" in helpers:
        source += ["def g_py(s, v):"] + gen.helper("g") + ["", "", "g = ag.convert(g_py)",
                                                            "", ""]
    gen.statements = 0
    scope = _Scope()
    body = ["    t = x * 0.5", f"    u = np.sum(x) + {gen.float_literal()}", "    k = n + 0"]
    body += gen.block(scope, 1)
    while gen.statements < MAX_STATEMENTS // 2:
        body += gen.block(scope, 1)
    body += [f"    return {gen.result(scope)}"]
    source += ["def f(s, n, x):"] + body
    return Program("\n".join(source) + "\n", draw(initial_values(names)), helpers)


def arguments():
    """One set of arguments `(n, x)`: an int64 in 0..5 and a float64[3] array."""
    halves = st.integers(-4, 4).map(lambda v: v / 2)
    return st.tuples(st.integers(0, 5).map(np.int64),
                     st.lists(halves, min_size=3, max_size=3).map(
                         lambda v: np.array(v, np.float64)))
