"""Questions about Connect Four for `gameproof reach` (docs/connect4.md).

    gameproof reach connect4 --plies 42 --where examples/connect4_questions.py::first_player_threats --set n=14
"""


def first_player_threats(player, opponent, to_move, rules, n=4):
    """The game goes on and the first player has at least `n` empty cells that would complete four."""
    first = opponent if to_move else player
    empty = rules.CELLS & ~(player | opponent)
    return (rules.legal(player, opponent) != 0) & (rules.threats(first, empty) >= n)
