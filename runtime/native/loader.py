"""Numba, imported here and nowhere else, lazily: the native tier is an optional extra."""
from __future__ import annotations

import functools


class NativeUnavailable(RuntimeError):
    """Numba is not installed (or does not import): graphs run on the NumPy tier."""


@functools.lru_cache(maxsize=None)
def numba_module():
    """The `numba` module; `NativeUnavailable` naming the extra to install where it is
    missing."""
    try:
        import numba
    except Exception as error:  # ImportError, or a Numba too old for this NumPy
        raise NativeUnavailable(
            f"the native tier needs Numba ({type(error).__name__}: {error}); install it "
            f"with `pip install 'autograph-numpy[native]'`; graphs run on the NumPy "
            f"tier meanwhile") from None
    return numba


def available() -> bool:
    """True where Numba imports."""
    try:
        numba_module()
    except NativeUnavailable:
        return False
    return True
