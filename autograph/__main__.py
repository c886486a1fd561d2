"""`python -m autograph` is `agc`."""
import sys

from .cli import main

sys.exit(main())
