"""A declared move order ranks the moves the kernels find, and never leaves one out (cells it does not name come
after the named ones, lowest first)."""

import random
from dataclasses import replace

import numpy as np
import pytest

from gameproof.framework.game import Game
from gameproof.framework.registry import specs
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options
from gameproof.search.solve import solve


def _game(name: str, parameters: str, order: str) -> Game:
    """The built-in game, with its declared order ("declared"), the reverse of its cells ("reversed"), or the last
    two of its cells only ("partial")."""
    spec = specs()[name]
    game = Game(spec, spec.parse_parameters(parameters))
    if order == "declared":
        return game
    cells = list(game.board.cells)
    chosen = cells[::-1] if order == "reversed" else cells[-2:]
    return Game(replace(spec, move_order=lambda **_: chosen), spec.parse_parameters(parameters))


def _in_declared_order(game: Game, state: RulesState) -> list[int]:
    """The obvious reference: the legal moves sorted by their place in the declared order, the rest after them."""
    order = game.move_order.tolist()
    place = {cell: index for index, cell in enumerate(order)}
    return sorted(state.legal_moves(), key=lambda move: (place.get(move, len(order)), move))


def _kernel_moves(game: Game, state: RulesState) -> list[int]:
    buffer = np.zeros(game.max_moves, dtype=np.int64)
    count = int(game.kernels.moves(state.frames(), game.tables, buffer))
    return buffer[:count].tolist()


# Connect Four: a few moves, sorted as the kernels find them; m,n,k 5x5: many moves, the ranked cells scanned;
# Hex: cells in two words.
CASES = [("connect4", "7,6", "declared"), ("connect4", "6,5", "partial"), ("mnk", "5,5,4", "reversed"),
         ("mnk", "5,5,4", "partial"), ("hex", "5", "declared"), ("hex", "9", "partial")]


@pytest.mark.parametrize(("name", "parameters", "order"), CASES)
def test_the_kernels_give_every_legal_move_in_the_declared_order(name, parameters, order):
    game = _game(name, parameters, order)
    rng = random.Random(2026)
    for _ in range(12):
        state = RulesState(game)
        while not state.is_over():
            assert _kernel_moves(game, state) == _in_declared_order(game, state), state.record
            state.play(rng.choice(state.legal_moves()))


def test_an_order_that_names_one_cell_solves_every_move_as_no_order_does():
    plain = Game(specs()["mnk"], specs()["mnk"].parse_parameters("3,3,3"))
    centre = Game(replace(plain.spec, move_order=lambda **_: [plain.board.bit(1, 1)]), plain.parameters)
    solved = [solve(RulesState(game), Options(tt_mb=1)) for game in (plain, centre)]
    assert solved[0].value == solved[1].value and solved[0].moves == solved[1].moves
    assert len(solved[1].moves) == 9  # every first move valued, the eight the order leaves out among them
