"""A staged loop that writes an array in place on some trips and rebinds the name on others,
where another value of the loop shares the array's memory.

    w = x[1:]
    for i in range(n):        # n traced: a staged loop
        s = s + w[0]          # w views the caller's array...
        if y[i] > 0:
            x *= 0.5          # ...which this writes while x is still it
        else:
            x = np.copy(y)    # after this trip, x is another array: w no longer follows it

The generated-program campaigns stopped on these as refusals ("a staged loop writes 'x'
in place and binds it to another array for the next step"). The loop now carries the
array owning the memory and whether each such name is still it
(`runtime.ops.loop_relinks`). Each case runs eagerly (the oracle) and converted
on inputs taking every path, with one trace, comparing results and the caller's arrays.
"""
import numpy as np
import pytest

import autograph as ag
from test_view_writes import check  # eager vs graph, the arguments after the call too

X = np.array([1.0, 2.0, 3.0])
SIGNS = [np.array(y) for y in ([1.0, -2.0, 3.0], [-1.0, 2.0, 3.0], [1.0, 2.0, 3.0],
                               [-1.0, -2.0, -3.0])]


def counts(*values):
    return [(X, np.int64(n)) for n in values]


# -- minimized from the campaigns (seeds 951, 954) ---------------------------------------------

def iterated_then_rebound(x):
    for v in x:                   # iterates the caller's array, which the first trip writes
        if v > 0.5:
            break                 # a traced test: the loop is staged from here
        x *= 2.0
        x = x - 1.0
    return x


def zip_with_break(x, y):
    for a, b in zip(x, y):
        if b > 0:
            x *= 0.5
        else:
            x = np.copy(y)
        if a + b > 3.0:
            break
    return x


def enumerate_with_return(x):
    y = x * 0.5
    for j, v in enumerate(y):     # iterates the array y is before the loop
        if y[0] > 0.5:
            return y * 2.0
        elif np.mean(y) < 2.0:
            y = y - 1.0
        y[1:] -= x[:2]
    return y


@pytest.mark.parametrize("x", [[0.0, 1.0, 2.0], [-1.0, -2.0, -1.0], [-1.0, 0.25, 1.5],
                               [2.0, 0.0, 0.0]])
def test_an_iterated_array_written_then_rebound(x):
    check(iterated_then_rebound, (np.array(x),))


def test_zip_with_a_break_writes_or_rebinds():
    check(zip_with_break, *[(x, y) for x in (X, np.array([0.5, -1.0, 4.0])) for y in SIGNS])


@pytest.mark.parametrize("x", [[-1.0, -2.0, -1.0], [-1.0, 1.0, 1.5], [2.0, 1.0, 1.5],
                               [0.5, 5.0, 6.0]])
def test_enumerate_with_a_return_writes_or_rebinds(x):
    check(enumerate_with_return, (np.array(x),))


def test_the_campaign_program_of_seed_954():
    check(campaign_954, *[(np.int64(n), np.int64(k), np.array(x), 2)
                          for n, k, x in [(4, -4, [-1.0, -2.0, -1.0]), (1, -2, [-1.0, 1.0, 1.5]),
                                          (6, 6, [-1.0, 1.0, 1.5])]])


def campaign_954(n, k, x, p):  # the campaign's program, cut down by hand
    b = np.int64(0) + p
    y = x * 0.5
    s = x[0]
    shift = lambda: y + s        # noqa: E731 - a closure reading y
    for j0, v0 in enumerate(y):
        for j1, v1 in enumerate(y):
            if p < 2:
                pass
            elif (shift() - y[(k - j1) % 3]).max() < 0.5:
                return (b, shift() * 2.0)
            elif not (np.mean((y - np.mean(x))) < 2.0):
                y = ((y - x.max()) + (shift() - y))
            y[1:] -= x[:2]
    return (b, y)


# -- other values sharing the memory ----------------------------------------------------------

def view_read_while_rebound(x, y, n):
    w = x[1:]
    s = 0.0
    for i in range(n):
        s = s + w[0]
        if y[i % 3] > 0:
            x *= 0.5
        else:
            x = np.copy(y)
    return x, s


def view_written_while_rebound(x, y, n):
    w = x[1:]
    for i in range(n):
        if y[i % 3] > 0:
            w *= 0.5              # writes x while x is still the caller's array
        else:
            x = np.copy(y)
    return x, w


def second_name_both_rebound(x, y, n):
    z = x
    for i in range(n):
        if y[i % 3] > 0:
            x *= 0.5              # z sees this while both are the caller's array
        else:
            x = np.copy(y)
        z = z + 1.0
    return x, z


def rebound_in_a_while(x, n):
    w = x[::2]
    i = 0
    while i < n:
        i += 1
        x *= -1.0
        if w.sum() > 0:
            x = x * 3.0
    return x, w


def rebound_in_a_nested_loop(x, n):
    w = x[1:]
    s = 0.0
    for i in range(n):
        for j in range(n):
            if w[0] > 3.0:
                x *= 0.5
            else:
                x = x + 1.0
        s = s + w.sum()
    return x, s


@pytest.mark.parametrize("fn", [view_read_while_rebound, view_written_while_rebound,
                                second_name_both_rebound])
def test_a_value_sharing_the_array_follows_it_until_it_is_rebound(fn):
    check(fn, *[(X, y, np.int64(n)) for y in SIGNS for n in (0, 1, 2, 4)])


def test_a_while_loop_writes_then_rebinds():
    check(rebound_in_a_while, *[(np.array(x), np.int64(n)) for x in ([1.0, 2.0, 3.0],
                                                                     [-1.0, 2.0, -3.0])
                                for n in (0, 1, 2, 3)])


def test_a_nested_loop_writes_then_rebinds():
    check(rebound_in_a_nested_loop, *[(np.array(x), np.int64(n)) for x in ([1.0, 5.0, 3.0],
                                                                          [1.0, 2.0, 3.0])
                                      for n in (0, 1, 2, 3)])


# -- what stays refused: the name becomes another view of the memory -------------------------

def rebound_to_a_transposed_view(x, n):
    t = x.T
    for i in range(n):
        if x[0, 1] > x[1, 0]:
            x *= 0.5
        else:
            x = t                 # the next trip writes the caller's array through t
    return x, t


def outer_array_bound_in_a_branch(x, n):
    y = x * 1.0
    for i in range(n):
        if y[0] > 5:
            y = y * 0.5
        else:
            y = x                 # the caller's array, which the loop does not carry
        y += 1.0
    return y


@pytest.mark.parametrize("fn, message", [
    (rebound_to_a_transposed_view, r"staged loop writes 'x' in place and binds it to another "
                                   r"array for the next step \(at .*test_loop_rebinds.py:\d+"),
    # once a silent wrong answer: the branch's result was taken for a new array, and the
    # write missed the caller's array
    (outer_array_bound_in_a_branch, r"in-place `add` on 'y' \(at .*test_loop_rebinds.py:\d+ in "
                                    r"outer_array_bound_in_a_branch\): 'y' is, on some paths"),
])
def test_a_name_rebound_to_memory_the_loop_cannot_follow_is_refused(fn, message):
    x = np.arange(9.0).reshape(3, 3).T.copy() if fn is rebound_to_a_transposed_view \
        else np.array([1.0, 2.0, 3.0])
    with pytest.raises(ag.TracingError, match=message):
        ag.convert(fn)(x, np.int64(3))


# -- refused today: the value a `return` in the loop holds is the array, on some paths --------

def returns_it_or_writes_it(n, x, p):
    y = x * 0.5
    for j in range(n):
        if p < 2:
            return y              # the converter holds y until the function ends...
        if np.mean(y) > 0.0:
            y = y - 1.0
        y *= 2.0                  # ...and this write, on the other paths, cannot tell
    return y


def returns_it_from_a_nested_loop(n, x, p):
    y = x * 0.5
    for j0, v0 in enumerate(y):
        for j1, v1 in enumerate(y):
            if y[j1] > n:
                return y
            elif np.mean(y) > 0.0:
                y = y - 1.0
            y[1:] -= x[:2]
    return y


@pytest.mark.parametrize("fn, message", [
    (returns_it_or_writes_it, r"in-place `write in a staged block` on 'y' \(at .*"
                              r"test_loop_rebinds.py:\d+ in returns_it_or_writes_it\): the value "
                              r"the function returns is, on some paths .* return a copy "
                              r"\(`return y.copy\(\)`\)"),
    (returns_it_from_a_nested_loop, r"on 'y' \(at .*test_loop_rebinds.py:\d+ in "
                                    r"returns_it_from_a_nested_loop\): 'y' and the value the "
                                    r"function returns are, on some paths .* return a copy"),
])
def test_a_returned_array_written_on_other_paths_is_refused_with_the_way_out(fn, message):
    with pytest.raises(ag.TracingError, match=message):
        ag.convert(fn)(np.int64(-4), np.array([-1.0, -2.0, -1.0]), np.int64(3))


def returns_its_argument_from_a_loop(x, n):
    i = 0
    while i < n:
        i += 1
        if x[i % 3] > 0:
            return x              # the caller's array itself
    return x * 0.0


def writes_what_a_callee_returned(a, n):
    v = returns_its_argument_from_a_loop(a, n)
    v += 1.0                      # eagerly writes `a` where the callee returned it
    return v


@pytest.mark.xfail(strict=True, raises=ag.TracingError, reason="open: the loop does not "
                   "carry x (read from outside it), so its result for `retval_` cannot be "
                   "the conditional view of x a carried flag would make it; once a silently "
                   "different answer, now refused (`path_aliases.from_outside`, the test below)")
def test_a_caller_writing_an_array_a_callee_returned_from_a_loop():
    check(writes_what_a_callee_returned, (np.array([1.0, 2.0, 3.0]), np.int64(2)))


@pytest.mark.parametrize("n", [0, 1, 2])
def test_a_caller_writing_an_array_a_callee_returned_from_a_loop_is_refused(n):
    # once a silent wrong answer: the write missed the caller's array `a`
    with pytest.raises(ag.TracingError, match=r"in-place `add` on the value the function "
                       r"returns \(at .*test_loop_rebinds.py:\d+ in "
                       r"writes_what_a_callee_returned\): .*the very array 'a'"):
        ag.convert(writes_what_a_callee_returned)(np.array([1.0, 2.0, 3.0]), np.int64(n))


# -- the value a `return` holds, one of two names for the array (seed 971) -------------------

def returns_it_or_writes_it_or_rebinds_it(x, y):
    for v in y:
        if 0.0 < v < 1.0:
            x = np.copy(y)        # x is another array from this trip on...
        if v > 1.0:
            x += 3.0              # ...or still the caller's, which this writes
        elif v < -1.0:
            return x              # in a nested `if`: the returned value is x or kept
    return x


def campaign_971(k, x):  # the campaign's program, cut down by hand
    y = x * 0.5
    for j0, v0 in enumerate(y):
        if v0 > 0.5:
            pass
        else:
            x = np.copy(y)
        if k == 1:
            x += 3
        elif k == 2:
            return (np.int64(0) + j0, x)
    return (k, x)


@pytest.mark.parametrize("y", [[2.0, -2.0, 3.0], [0.5, 2.0, -2.0], [-0.5, 0.5, 3.0],
                               [2.0, 3.0, 0.5], [-2.0, 1.0, 1.0], [0.5, -0.5, 2.0]])
def test_a_returned_array_is_the_written_one_or_another(y):
    check(returns_it_or_writes_it_or_rebinds_it, (np.array([0.0, -1.0, 1.5]), np.array(y)))


def test_the_campaign_program_of_seed_971():
    check(campaign_971, *[(np.int64(k), np.array(x)) for k, x in [
        (1, [0.0, -1.0, 1.5]), (2, [-1.5, 1.5, 3.5]), (3, [1.5, 1.5, -1.0]),
        (1, [1.5, 2.0, 3.0]), (2, [1.5, 2.0, 3.0])]])


def returns_what_it_writes_from_a_nested_if(x, y):
    z = x * 0.5
    for j, v in enumerate(z):     # iterates the array it writes
        if y[j] > 0.0:
            z[:2] *= 0.5
        elif y[j] < -1.0:
            if j >= 1:
                return (j, z)     # z, in an `if` of its own: `retval_` keeps its value else
    return (-1, z * 2.0)


@pytest.mark.parametrize("y", [[1.0, -2.0, 3.0], [-2.0, 1.0, -2.0], [1.0, 1.0, -2.0],
                               [-2.0, -2.0, 1.0], [0.0, 0.0, 0.0]])
def test_a_returned_array_written_on_earlier_trips(y):
    check(returns_what_it_writes_from_a_nested_if, (np.array([0.0, -1.0, 1.5]), np.array(y)))


def second_name_taken_then_written(x, y):
    r = x
    for v in y:
        if 0.0 < v < 1.0:
            x = np.copy(y)
        if v > 1.0:
            x += 3.0              # r sees this where it is x, the caller's array or not
        elif v < -1.0:
            r = x
    return x, r


@pytest.mark.xfail(strict=True, raises=ag.TracingError, reason="open: the loop over y (of "
                   "known length) is unrolled into staged `if`s; after `r = x` in one, r is, "
                   "where x was copied, x's array of its own (a conditional view's), which "
                   "`path_aliases` cannot link (one base per view): once a silently different "
                   "answer, now refused (`shared_results`, the test below)")
@pytest.mark.parametrize("y", [[0.5, -2.0, 3.0], [-0.5, -2.0, 3.0]])
def test_a_second_name_taken_in_the_loop_follows_later_writes(y):
    check(second_name_taken_then_written, (np.array([0.0, -1.0, 1.5]), np.array(y)))


@pytest.mark.parametrize("y", [[0.5, -2.0, 3.0], [-0.5, -2.0, 3.0], [2.0, 2.0, 2.0]])
def test_a_second_name_taken_in_the_loop_is_refused_where_a_write_would_miss_it(y):
    # the refusal names the write and its line (once a silent wrong answer: eager r is
    # [3.5, 1, 6], the graph's was [0.5, -2, 3])
    with pytest.raises(ag.TracingError, match=r"on 'x' \(at .*test_loop_rebinds.py:\d+ in "
                       r"second_name_taken_then_written\): .* one array .* copy one of them"):
        ag.convert(second_name_taken_then_written)(np.array([0.0, -1.0, 1.5]), np.array(y))


def writes_through_a_view_in_a_loop_with_an_else(k, x):  # seed 971, cut down
    w = x[1:]
    for j in range(k):            # traced
        for v in x:               # iterates the array w writes
            w += 1.0
        else:
            return (k, x)         # the converter stops the inner loop on `do_return`
    return (k, x)


@pytest.mark.xfail(strict=True, raises=ag.TracingError, reason="open: the inner loop, which "
                   "carries x for the writes through w, returns for it the array it iterates "
                   "(read from outside the loop), which the relinked loop does not take for "
                   "the array it carries: refused as 'writes 'w' in place while 'w' ... is "
                   "bound to another array', though nothing is rebound (without the `else` it "
                   "converts)")
def test_a_view_written_in_an_inner_loop_with_an_else_that_returns():
    check(writes_through_a_view_in_a_loop_with_an_else,
          *[(np.int64(k), np.array([0.0, -1.0, 1.5])) for k in (0, 1, 3)])


# -- gradients ---------------------------------------------------------------------------------

def scaled_while_viewed(x, y, n):
    x = x * 1.0
    w = x[1:]
    s = 0.0
    for i in range(n):
        s = s + w[0] * y[0]
        if y[i % 3] > 0:
            x *= y[1]             # reaches w while x is still the array w views
        else:
            x = y * 2.0
    return (x * x).sum() + s + (w * w).sum()


def test_gradients_through_a_loop_that_writes_then_rebinds():
    from gradcheck import check_grad
    x = np.random.default_rng(0).uniform(0.5, 2.0, size=3)
    for y in SIGNS:
        for n in (1, 4):
            check_grad(scaled_while_viewed, x, y * 0.7, np.int64(n), argnums=(0, 1),
                       autograph=True)


# -- one array under two names on some paths only (`runtime.shared_results`) -----------------

def copied_and_named_twice_in_a_branch(x, y, c):
    r = x * 1.0
    if c > 0:
        x = np.copy(y)
        r = x                     # r and x: one new array on this path only
    x += 1.0
    return r, x


def copied_then_named_in_a_later_if(x, y, c):
    r = x
    if c > 0:
        x = np.copy(y)
    if c < 5:
        r = x                     # r: x's copy, or the caller's array
    r += 1.0                      # the write through the second name
    return r, x


def named_twice_in_both_branches(x, y, c):
    if c > 0:
        x = np.copy(y)
        r = x
    else:
        x = x * 2.0
        r = x                     # r is x on every path: its second name
    x += 1.0
    return r, x


def second_name_in_a_staged_range(x, y, n):
    r = x
    for i in range(n):            # n traced: a staged loop
        if i == 1:
            x = np.copy(y)
        if i == 2:
            r = x
        x += 1.0
    return r, x


def second_name_in_a_while(x, y, n):
    r = x
    i = 0
    while i < n:
        i += 1
        if y[i % 3] > 6.5:
            r = x
        else:
            x = np.copy(y)
        x += 1.0
    return r, x


def second_name_in_nested_loops(x, y, n):
    r = x
    for i in range(n):
        for j in range(n):
            if i == j:
                x = np.copy(y)
            elif j == 1:
                r = x
            x += 1.0
    return r, x


def second_name_in_the_first_trip(x, y):
    r = x * 0.0
    for v in y:                   # of known length: unrolled into staged `if`s
        if v > 6.5:
            r = x                 # the caller's array, on the trips that take it
        x += 1.0
    return r, x


Y = np.array([5.0, 6.0, 7.0])


@pytest.mark.parametrize("fn", [copied_and_named_twice_in_a_branch,
                                copied_then_named_in_a_later_if])
def test_one_array_under_two_names_on_some_paths_is_refused(fn):
    for c in (-1, 1, 7):   # refused on every input: the graph is one for all
        with pytest.raises(ag.TracingError, match=rf"\(at .*test_loop_rebinds.py:\d+ in "
                           rf"{fn.__name__}\): .* one array"):
            ag.convert(fn)(X.copy(), Y.copy(), np.int64(c))


def test_one_array_under_two_names_on_every_path_follows_writes():
    check(named_twice_in_both_branches, *[(X, Y, np.int64(c)) for c in (-1, 1)])


def test_a_second_name_taken_in_some_trips_or_another_array_is_refused():
    # r: the caller's array or the zeros from before: two arrays, one view base each
    with pytest.raises(ag.TracingError, match=r"on 'x' \(at .*test_loop_rebinds.py:\d+ in "
                       r"second_name_in_the_first_trip\): 'r' is, on some paths"):
        ag.convert(second_name_in_the_first_trip)(X.copy(), Y.copy())


@pytest.mark.parametrize("fn", [second_name_in_a_staged_range, second_name_in_a_while,
                                second_name_in_nested_loops])
def test_a_second_name_taken_in_a_staged_loop_is_refused(fn):
    for n in (0, 1, 3):    # zero trips too: one graph for every trip count
        with pytest.raises(ag.TracingError, match=rf"test_loop_rebinds.py:\d+ in {fn.__name__}"):
            ag.convert(fn)(X.copy(), Y.copy(), np.int64(n))
