"""Questions about Domineering for `gameproof reach` (see docs/new_game.md).

    gameproof reach examples/domineering.py:5,5 --plies 9 --where examples/domineering_questions.py::horizontal_stuck
"""


def horizontal_stuck(covered, to_move, rules, most=18):
    """Horizontal is to move and has no move left, with at most `most` cells covered."""
    return (to_move != 0) & (rules.horizontal_spots(covered) == 0) & (rules.popcount(covered) <= most)
