"""What every converter is handed: the names in use.

Where the code came from is each node's `Static.ORIGIN` annotation.
"""
from __future__ import annotations

import dataclasses

from ..pyct.naming import Namer


@dataclasses.dataclass
class Context:
    namer: Namer
