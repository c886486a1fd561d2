"""Source maps: which line of the user's code each line of generated code stands for.

`loader.load` registers one map per generated file (`<autograph f (model.py:12) #3>`);
`original_location` answers for those files and None for any other, which is the
location resolver `autograph` registers with `runtime.source`:

>>> register_source_map("<autograph f #0>", {3: ("model.py", 12, "f")})
>>> original_location("<autograph f #0>", 5, "f")
('model.py', 12, 'f')
>>> original_location("model.py", 5, "f") is None
True
>>> register_source_map("<autograph g (<autograph f #0>:4) #1>", {2: ("<autograph f #0>", 4, "g")})
>>> original_location("<autograph g (<autograph f #0>:4) #1>", 2, "g")
('model.py', 12, 'f')
"""
from __future__ import annotations

_source_maps: dict[str, dict[int, tuple]] = {}


def register_source_map(filename: str, mapping: dict) -> None:
    """Declares that lines of generated `filename` stand for (file, line, function)s."""
    _source_maps[filename] = mapping


def original_location(filename: str, lineno: int, function: str):
    """The user's (file, line, function) for a line of generated `filename`, else None.

    A generated line without an entry of its own takes the nearest entry above it.
    A line of code generated from generated code (a function converted again, as
    `@ag.convert` on a def inside a converted function is) maps to the user's line.
    """
    found = None
    for _ in range(len(_source_maps)):
        mapping = _source_maps.get(filename)
        line = lineno if mapping else 0
        while line > 0 and line not in mapping:   # asked once per traced equation
            line -= 1
        if line <= 0:
            return found
        found = filename, lineno, function = mapping[line]
    return found
