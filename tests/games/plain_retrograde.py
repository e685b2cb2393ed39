"""A plain retrograde analysis, for the references of games that may repeat (Dodgem, Three Men's Morris): dicts and
lists, a queue and counters, nothing of gameproof's."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable

WIN, LOSS, DRAW = 1, -1, 0


def reachable(start: Hashable, moves: Callable[[Hashable], list], play: Callable[[Hashable, object], Hashable]
              ) -> tuple[list, list[list[int]]]:
    """Every position reachable from `start` (the start first) and each one's successors, by index in that list."""
    index = {start: 0}
    positions, successors = [start], []
    done = 0
    while done < len(positions):
        position = positions[done]
        following = []
        for move in moves(position):
            after = play(position, move)
            if after not in index:
                index[after] = len(positions)
                positions.append(after)
            following.append(index[after])
        successors.append(following)
        done += 1
    return positions, successors


def values(successors: list[list[int]], without_a_move: int) -> list[int]:
    """Each position's value for its side to move (WIN, LOSS or DRAW), where a position without a move is worth
    `without_a_move` to its side to move. Backwards from those: a position with a successor lost (for the side to
    move there) is won; one whose successors are all won is lost (a counter of the successors not yet known won);
    what is never resolved can be played for ever without either side forcing a win: a draw."""
    predecessors: list[list[int]] = [[] for _ in successors]
    left = []
    for here, following in enumerate(successors):
        distinct = set(following)
        left.append(len(distinct))
        for after in distinct:
            predecessors[after].append(here)
    value = [DRAW] * len(successors)
    resolved = [False] * len(successors)
    queue = deque()
    for here, following in enumerate(successors):
        if not following:
            value[here], resolved[here] = without_a_move, True
            queue.append(here)
    while queue:
        here = queue.popleft()
        for before in predecessors[here]:
            if resolved[before]:
                continue
            if value[here] == LOSS:
                value[before], resolved[before] = WIN, True
                queue.append(before)
            else:
                left[before] -= 1
                if left[before] == 0:
                    value[before], resolved[before] = LOSS, True
                    queue.append(before)
    return value


def paths(position: Hashable, depth: int, moves: Callable[[Hashable], list], play: Callable[[Hashable, object], Hashable]
          ) -> int:
    """The move paths of exactly `depth` plies from `position` (a finished game is no path): perft."""
    if depth == 0:
        return 1
    return sum(paths(play(position, move), depth - 1, moves, play) for move in moves(position))
