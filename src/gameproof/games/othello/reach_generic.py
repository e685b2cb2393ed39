"""The generic encoding: k plies of Othello traced from the engine's own rule functions.

Nothing here restates the rules: :mod:`gameproof.games.othello.rules` runs on symbolic 64-bit words
and :mod:`gameproof.logic` turns the trace into a circuit and CNF, as the 2020 study did by hand with
z3. Each ply reads one free 7-bit choice: a square 0..63, 64 for a pass, 65 for "stop" (the game
ended earlier; every later ply stops too).
"""

from __future__ import annotations

from gameproof.framework import reach
from gameproof.games.othello import rules
from gameproof.games.othello.notation import PASS
from gameproof.games.othello.reach_direct import F5
from gameproof.logic import Word, any_uint, assume, cover, ite, zext

STOP = PASS + 1


def _one_hot(choice):
    """The one-bit word of square `choice` (0 for choices >= 64), symbolic or, on replay, a plain int."""
    if isinstance(choice, int):
        return (1 << choice) & rules.M64
    return Word.constant(1, 64) << zext(choice, 64)


def reach_harness(min_legal: int, plies: int, rule_set: str = "strict"):
    """A harness whose `cover` is satisfied by a game reaching >= `min_legal` legal moves within `plies`."""
    strict = rule_set == "strict"

    def othello_reach() -> None:
        player, opponent = rules.START_BLACK, rules.START_WHITE
        stopped = None
        for ply in range(plies):
            choice = any_uint(7, f"ply{ply + 1}")
            assume(choice <= STOP)
            legal = rules.legal_moves(player, opponent)
            is_pass, is_stop = choice == PASS, choice == STOP
            move = _one_hot(choice)  # 0 for a pass or a stop
            assume(is_stop | is_pass | ((legal & move) != 0))
            if strict:
                assume(~is_pass | (legal == 0))
            if ply == 0:
                assume(is_stop | (choice == F5))  # symmetry: the four openings are equivalent
            if stopped is not None:
                assume(~stopped | is_stop)
            stopped = is_stop
            after_player, after_opponent = rules.after_move(player, opponent, move)
            player, opponent = (
                ite(is_stop, player, ite(is_pass, opponent, after_player)),
                ite(is_stop, opponent, ite(is_pass, player, after_opponent)),
            )
        cover(rules.popcount(rules.legal_moves(player, opponent)) >= min_legal, f">= {min_legal} legal moves")

    othello_reach.__name__ = f"othello_reach_{min_legal}_in_{plies}"
    return othello_reach


def decode_moves(inputs: dict[str, int], plies: int) -> list[int]:
    """The move sequence (squares and PASS) that a witness's choices describe, up to the first stop."""
    return [parts[0] for parts in reach.chosen_parts(inputs, plies, STOP)]
