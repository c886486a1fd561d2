"""Where things are in the test files, for checking the locations errors name."""
import inspect


def line_of(fn, text):
    """`file:line` of the first line of `fn`'s source that contains `text`."""
    lines, start = inspect.getsourcelines(fn)
    for offset, line in enumerate(lines):
        if text in line:
            return f"{inspect.getsourcefile(fn)}:{start + offset}"
    raise AssertionError(f"{text!r} not in the source of {fn.__name__}")
