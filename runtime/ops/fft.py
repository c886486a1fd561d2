"""Discrete Fourier transforms: `np.fft.fft`, `ifft`, `rfft` and `irfft`.

One primitive each, named after the function, with NumPy's (or CuPy's)
kernel; params `n` (the transform length, None for the input's), `axis`
(non-negative) and `norm` (None, "backward", "ortho" or "forward"). Result
dtypes are NumPy 2's: float32 input gives complex64 (irfft: float32), other
real input complex128 (irfft: float64). The output length along `axis` is `n`
(rfft: `n // 2 + 1`; irfft: `n`, by default `2 * (m - 1)` for an input of
length `m`), unknown where the input's is and `n` is not given.

These carry no gradient: complex values carry no cotangents (see
`autodiff/cotangents.py`).
"""
from __future__ import annotations

import operator

import numpy as np

from .. import primitives
from ..abstract import normalize_axis
from ..dispatch import implements
from ..tracer import bind
from ._rules import aval, reject
from .shape_ops import ndim, operand

_NORMS = (None, "backward", "ortho", "forward")


def _length(name, m, n):
    """The transform's output length along its axis (None: unknown)."""
    if name == "irfft":
        n = n if n is not None else None if m is None else 2 * (m - 1)
    else:
        n = m if n is None else n
    if n is not None and n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    if name == "rfft" and n is not None:
        return n // 2 + 1
    return n


def _dtype(name, dtype):
    with np.errstate(all="ignore"):
        return getattr(np.fft, name)(np.ones(2, dtype), n=2).dtype


def _rule(name):
    def rule(x, *, n=None, axis=-1, norm=None):
        shape = list(x.aval.shape)
        axis = normalize_axis(axis, len(shape))
        shape[axis] = _length(name, shape[axis], n)
        return aval(tuple(shape), _dtype(name, x.aval.dtype))
    return rule


def _kernel(name):
    def kernel(xp, n=None, axis=-1, norm=None):
        fn = getattr(xp.fft, name)
        return lambda x: fn(x, n=n, axis=axis, norm=norm)
    return kernel


_p = {name: primitives.define(name, _rule(name), _kernel(name))
      for name in ("fft", "ifft", "rfft", "irfft")}
fft_p, ifft_p, rfft_p, irfft_p = (_p[name] for name in ("fft", "ifft", "rfft", "irfft"))


def _handler(name):
    def handler(a, n=None, axis=-1, norm=None, out=None):
        reject({"out": out}, f"numpy.fft.{name}")
        if norm not in _NORMS:
            raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" '
                             'or "forward".')
        a = operand(a)
        n = None if n is None else operator.index(n)
        return bind(_p[name], a, n=n, axis=normalize_axis(axis, ndim(a)), norm=norm)
    return handler


for _name in _p:
    implements(getattr(np.fft, _name))(_handler(_name))
del _name
