"""What every converter is handed: the names in use and where the code came from."""
from __future__ import annotations

import dataclasses

from ..pyct.naming import Namer


@dataclasses.dataclass
class Context:
    namer: Namer
    filename: str
    function_name: str
