"""The package's version: `autograph.__version__`, `agc --version`, and setup.cfg's."""

__version__ = "0.1.0"
