"""Tablebases: every position reachable from the start solved by retrograde analysis, for any declared game —
those that must end and those that may repeat a position (:class:`~gameproof.framework.declaration.Repetition`).

The forward pass enumerates the positions by breadth from the start with the game's compiled kernels (one class
of positions equal up to the game's symmetries by canonical key, so keys must be exact codes); the graph pass
finds each position's children among them; the backward pass values them from the finished games back, with the
distance to the end under perfect play, and the exact score of a game that declares one. A table is a single file
(:mod:`gameproof.search.tablebase.table`) that `gameproof tablebase check` re-checks entry by entry with code of
its own (:mod:`gameproof.certify.tablebase_check`).
"""

#: The most positions a build enumerates unless told otherwise (about 300 bytes each at the peak of a build).
MOST_POSITIONS = 50_000_000
