"""The Othello rules of :mod:`.rules`, compiled with numba over uint64."""

from gameproof.games.othello import rules
from gameproof.jit import compile_rules

_compiled = compile_rules(rules)

legal_moves = _compiled.legal_moves
flips = _compiled.flips
popcount = _compiled.popcount
lowest_bit = _compiled.lowest_bit
after_move = _compiled.after_move
is_game_over = _compiled.is_game_over
