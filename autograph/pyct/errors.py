"""The converter's own error: source code it cannot convert.

`ConversionError` is defined here, without the runtime, so that the
converters and pyct need nothing from it. Importing `autograph` makes it a
`runtime.errors.AutographError` (see `autograph/__init__.py`), so
`except ag.AutographError` catches it with every other error of the project.
"""


class _ConverterError(Exception):
    """The stand-in base that `autograph` replaces by `AutographError` at import."""


class ConversionError(_ConverterError):
    """Source code that cannot be converted (an unsupported construct)."""


def make_subclass_of(base: type) -> None:
    """Makes `ConversionError` a subclass of `base` (an `Exception` subclass)."""
    if not issubclass(ConversionError, base):
        ConversionError.__bases__ = (base,)
