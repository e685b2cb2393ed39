"""The `direct` route: a numba Sudoku solver on candidate bitmasks.

Each cell holds a bitmask of its candidate digits (bit ``d - 1`` for digit ``d``); a cell whose single
candidate has been removed from all its peers is marked with the ``DONE`` bit, and cells that become
single wait on a queue, so propagation touches only what changed. Propagation applies naked
singles (a cell with one candidate) and hidden singles (a digit with one place in a group) to a fixpoint;
search branches on a cell with the fewest candidates, copying the board one level down a stack.
Every kernel works on ``int64`` arrays only, so numba never has to unify integer types.
"""

from __future__ import annotations

import numpy as np
from numba import njit

DONE = np.int64(1 << 30)


@njit(cache=True)
def _propagate(board, peers, units, popcount, full, queue, top):  # pragma: no cover - compiled
    """Apply naked and hidden singles to a fixpoint; False on a contradiction.

    ``queue[:top]`` holds the cells that became single and still have to be removed from their peers.
    """
    size = units.shape[1]
    while True:
        while top > 0:
            top -= 1
            c = queue[top]
            m = board[c]
            board[c] = m | DONE
            for k in range(peers.shape[1]):
                p = peers[c, k]
                pm = board[p]
                if pm & m:
                    if pm & DONE:
                        return False
                    pm = pm & ~m
                    if pm == 0:
                        return False
                    board[p] = pm
                    if popcount[pm] == 1:
                        queue[top] = p
                        top += 1
        for u in range(units.shape[0]):
            once = np.int64(0)
            twice = np.int64(0)
            for k in range(size):
                m = board[units[u, k]] & full
                twice |= once & m
                once |= m
            if once != full:
                return False
            hidden = once & ~twice
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                placed = False
                for k in range(size):
                    c = units[u, k]
                    if board[c] & bit:
                        if board[c] != bit and not board[c] & DONE:
                            board[c] = bit
                            queue[top] = c
                            top += 1
                        placed = True
                        break
                if not placed:
                    return False
        if top == 0:
            return True


@njit(cache=True)
def _solve(start, peers, units, popcount, full, limit, solution, stack, branch_cell, todo,
           queue):  # pragma: no cover - compiled
    """Count solutions of ``start`` up to ``limit``; the first lands in ``solution`` (bitmasks)."""
    cells = start.shape[0]
    stack[0, :] = start
    top = 0
    for c in range(cells):
        if start[c] == 0:
            return 0
        if popcount[start[c]] == 1:
            queue[top] = c
            top += 1
    if not _propagate(stack[0], peers, units, popcount, full, queue, top):
        return 0
    found = 0
    depth = 0
    descend = True
    while depth >= 0:
        if descend:
            board = stack[depth]
            best = -1
            fewest = 99
            for c in range(cells):
                m = board[c] & full
                count = popcount[m]
                if count > 1 and count < fewest:
                    fewest = count
                    best = c
                    if count == 2:
                        break
            if best < 0:
                if found == 0:
                    for c in range(cells):
                        solution[c] = board[c] & full
                found += 1
                if found >= limit:
                    return found
                depth -= 1
            else:
                branch_cell[depth] = best
                todo[depth] = board[best] & full
        descend = False
        while depth >= 0:
            left = todo[depth]
            if left == 0:
                depth -= 1
                continue
            bit = left & -left
            todo[depth] = left ^ bit
            stack[depth + 1, :] = stack[depth]
            stack[depth + 1, branch_cell[depth]] = bit
            queue[0] = branch_cell[depth]
            if _propagate(stack[depth + 1], peers, units, popcount, full, queue, 1):
                depth += 1
                descend = True
                break
    return found


@njit(cache=True, nogil=True)  # a signal's watchdog runs meanwhile (gameproof.interrupts)
def solve_batch(puzzles, peers, units, popcount, full, limit, solutions, counts):  # pragma: no cover - compiled
    """Solve every row of ``puzzles`` (candidate bitmasks); digit bitmasks of the first solution and counts."""
    cells = puzzles.shape[1]
    stack = np.zeros((cells + 1, cells), dtype=np.int64)
    branch_cell = np.zeros(cells + 1, dtype=np.int64)
    todo = np.zeros(cells + 1, dtype=np.int64)
    queue = np.zeros(cells, dtype=np.int64)
    for i in range(puzzles.shape[0]):
        counts[i] = _solve(puzzles[i], peers, units, popcount, full, limit, solutions[i], stack, branch_cell, todo,
                           queue)
