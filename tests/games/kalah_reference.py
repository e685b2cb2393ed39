"""Kalah written the slow, obvious way, apart from the rules module.

A board is a list of 2p + 2 counts in counter-clockwise order: the first player's pits 0..p-1, its store p,
the second player's pits p+1..2p, its store 2p+1; pit i faces pit 2p - i. Moves are named as the engine names
them: the letter of the pit's place in that order, then ``1`` (``a1`` .. for the first player).
The rules: sow every seed of a pit one by one into the following places, skipping the opponent's store; a
last seed in one's store moves again; a last seed in one's own empty pit, facing seeds, captures both into
one's store; a side to move with no seed in its pits ends the game, the other side storing its pits' seeds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Position:
    board: tuple[int, ...]
    side: int

    @property
    def pits(self) -> int:
        return len(self.board) // 2 - 1


def start(pits: int, seeds: int) -> Position:
    return Position(((seeds,) * pits + (0,)) * 2, 0)


def store_of(pits: int, side: int) -> int:
    return pits if side == 0 else 2 * pits + 1


def own_pits(pits: int, side: int) -> range:
    return range(pits) if side == 0 else range(pits + 1, 2 * pits + 1)


def name(place: int) -> str:
    return f"{chr(ord('a') + place)}1"


def moves(position: Position) -> list[str]:
    """The names of the side to move's pits that hold seeds."""
    return [name(place) for place in own_pits(position.pits, position.side) if position.board[place]]


def play(position: Position, move: str) -> Position:
    """The position after the side to move sows the pit named `move` (assumed legal)."""
    p, side = position.pits, position.side
    board = list(position.board)
    place = ord(move[0]) - ord("a")
    hand, board[place] = board[place], 0
    while hand:
        place = (place + 1) % len(board)
        if place == store_of(p, 1 - side):
            continue
        board[place] += 1
        hand -= 1
    if place == store_of(p, side):
        return Position(tuple(board), side)
    facing = 2 * p - place
    if place in own_pits(p, side) and board[place] == 1 and board[facing]:
        board[store_of(p, side)] += board[facing] + 1
        board[place] = board[facing] = 0
    return Position(tuple(board), 1 - side)


def is_over(position: Position) -> bool:
    return not moves(position)


def final_stores(position: Position) -> tuple[int, int]:
    """Each side's store once the game is over, the side not to move having stored its pits' seeds."""
    p, board = position.pits, position.board
    return (board[p] + sum(board[i] for i in own_pits(p, 0)),
            board[2 * p + 1] + sum(board[i] for i in own_pits(p, 1)))


def best_score(position: Position) -> int:
    """The final score (one's store less the other's) for the side to move under perfect play."""
    p, board = position.pits, position.board
    stored = board[store_of(p, position.side)] - board[store_of(p, 1 - position.side)]
    return stored + _still_to_win(tuple(board[i] for i in own_pits(p, 0)) + tuple(board[i] for i in own_pits(p, 1)),
                                  position.side)


@lru_cache(maxsize=None)
def _still_to_win(pits: tuple[int, ...], side: int) -> int:
    """The most seeds the side to move can still store beyond the other side, given the seeds in the pits
    (the first player's, then the second's): what is left to play does not depend on the stores."""
    p = len(pits) // 2
    position = Position(pits[:p] + (0,) + pits[p:] + (0,), side)
    if is_over(position):
        mine, theirs = final_stores(position)
        return mine - theirs if side == 0 else theirs - mine
    best = None
    for move in moves(position):
        after = play(position, move)
        board = after.board
        gained = board[store_of(p, side)] - board[store_of(p, 1 - side)]
        rest = _still_to_win(board[:p] + board[p + 1 : 2 * p + 1], after.side)
        value = gained + (rest if after.side == side else -rest)
        best = value if best is None else max(best, value)
    return best


def perft(position: Position, depth: int) -> int:
    """The move paths of exactly `depth` plies (a finished game is no path)."""
    if depth == 0:
        return 1
    return sum(perft(play(position, move), depth - 1) for move in moves(position))
