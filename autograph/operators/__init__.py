"""The functions converted code calls (as `ag__.*`): Python on concrete values, staged on traced ones."""
from .calls import converted_call
from .conditionals import if_exp, if_stmt
from .effects import assert_, print_
from .exceptions import caught, try_region
from .lists import list_append
from .logical import and_, compare_chain, not_, or_
from .loops import enumerate_, for_stmt, range_, while_stmt, zip_
from .undefined import Placeholder, Undefined, bound_or_undefined, ld
from .writes import check_global_write, setattr_, setitem

__all__ = [
    "Placeholder", "Undefined", "and_", "assert_", "bound_or_undefined", "caught",
    "check_global_write", "compare_chain", "converted_call", "enumerate_", "for_stmt", "if_exp",
    "if_stmt", "ld", "list_append", "not_", "or_", "print_", "range_", "setattr_", "setitem",
    "try_region", "while_stmt", "zip_",
]
