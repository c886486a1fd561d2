"""The functions converted code calls (as `ag__.*`): Python on concrete values, staged on traced ones."""
from .array_likes import index_trick
from .calls import converted_call
from .conditionals import if_exp, if_stmt
from .conversions import getitem
from .effects import assert_, fstring, percent_format, print_
from .exceptions import caught, entered_suppress, suppressed, try_region
from .lists import list_append, list_comp
from .local_arrays import method_in_place, out_call, ufunc_at
from .logical import and_, and_test, compare_chain, in_, not_, not_in, or_, or_test
from .loops import enumerate_, for_stmt, range_, while_stmt, zip_
from .shapes import shape_of, size_of
from .staged_tries import try_stmt
from .undefined import Placeholder, Undefined, bound_or_undefined, ld, returned, returned_none
from .writes import augmented, check_global_write, setattr_, setitem, slice_

__all__ = [
    "Placeholder", "Undefined", "and_", "and_test", "assert_", "augmented", "bound_or_undefined", "caught", "fstring", "percent_format",
    "check_global_write", "compare_chain", "converted_call", "entered_suppress", "enumerate_", "for_stmt", "getitem", "if_exp",
    "if_stmt", "in_", "index_trick", "ld", "list_append", "list_comp", "method_in_place", "not_", "not_in", "or_", "or_test",
    "out_call", "print_", "range_", "returned", "returned_none", "setattr_", "setitem", "shape_of", "size_of", "slice_",
    "suppressed", "try_region", "try_stmt", "ufunc_at", "while_stmt", "zip_",
]
