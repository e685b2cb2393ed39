"""Arrays borrowed inside a kernel: views that skip numba's reference counting.

numba counts references to an array's memory with atomic increments and decrements: every compiled call
that takes an array counts it up on entry and down on exit, and so does every view (``buffer[depth]``).
In a search that recurses millions of times a second through kernels taking a dozen arrays, those atomic
operations cost as much as the search's own work, and a table that two threads search at once has its
count's cache line passed back and forth between their cores at every node.

:func:`borrowed` gives the same arrays (or a tuple of them) without their memory's record, so that the
counting finds nothing to count. Use it only at the top of a kernel, on arrays its caller keeps alive for
the whole call, and never let a borrowed array outlive the call (return it, or store it).
"""

from __future__ import annotations

import numba

if numba.config.DISABLE_JIT:  # an intrinsic only compiles: the kernels as plain Python keep their arrays

    def borrowed(value):
        """`value` itself."""
        return value
else:
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    def _without_records(context, builder, value_type, value):
        """`value` (of `value_type`: an array, or a tuple holding arrays) with every array's memory record and
        parent object set to null."""
        if isinstance(value_type, types.Array):
            array = context.make_array(value_type)(context, builder, value=value)
            array.meminfo = cgutils.get_null_value(array.meminfo.type)
            array.parent = cgutils.get_null_value(array.parent.type)
            return array._getvalue()
        if isinstance(value_type, types.BaseTuple):
            for index, item_type in enumerate(value_type):
                item = builder.extract_value(value, index)
                value = builder.insert_value(value, _without_records(context, builder, item_type, item), index)
        return value

    @intrinsic
    def borrowed(typingctx, value):
        """`value` (an array, or a tuple of arrays and other values) as views that numba does not count."""

        def codegen(context, builder, signature, args):
            return _without_records(context, builder, signature.args[0], args[0])

        return value(value), codegen
