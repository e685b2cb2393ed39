"""Benchmark certificates: solve each game from the empty board with df-pn, build the certificate from the
table, write it, check it with the independent checker; prints a table.

Times are taken after the game's kernels are compiled (or loaded) on a late position of the same game.
Run: .venv/bin/python bench/bench_certificates.py [--games NAME ...] [--tt-mb M]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from gameproof.certify.check import check_certificate
from gameproof.certify.records import write_certificate
from gameproof.framework.registry import load_game
from gameproof.framework.state import RulesState
from gameproof.search import exact
from gameproof.search.certificate import certify
from gameproof.search.dfpn import Options, Search

GAMES = ["mnk:3,3,3", "mnk-misere:3,3,3", "mnk:4,3,3", "mnk-notakto:3,3,3", "mnk-misere:4,4,3", "mnk-misere:5,4,3"]


def search_for(name: str, options: Options) -> Search:
    game = load_game(name)
    return Search(game.kernels, game.tables, game.max_plies, 64, options, game.max_positions)


def warm_up(name: str) -> None:
    """Compile (or load) the game's kernels: certify a position a few plies from the end of a game that plays the
    first legal move at each turn (any game: one whose moves are not empty cells, such as Othello's, too)."""
    state = RulesState(load_game(name))
    line = []
    while not state.is_over():
        line.append(state.legal_moves()[0])
        state.play(line[-1])
    for _ in line[-6:]:
        state.undo()
    certify(state, search_for(name, Options(tt_mb=1)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="+", default=GAMES, help="games to certify from the start")
    parser.add_argument("--tt-mb", type=float, default=512.0, help="transposition table in MiB (default 512)")
    args = parser.parse_args()
    print(f"{'game':<20} {'value':>5} {'solve s':>8} {'positions':>11} {'bytes':>12} {'build s':>8} {'check s':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.games:
            warm_up(name)
            state = RulesState(load_game(name))
            search = search_for(name, Options(tt_mb=args.tt_mb))
            start = time.perf_counter()
            exact.solve(search.kernels, search.tables, state.frames(), max_depth=state.game.max_plies, max_moves=64,
                        with_moves=False, search=search)
            solved = time.perf_counter() - start
            certificate = certify(state, search)
            path = Path(folder) / "bench.cert"
            size = write_certificate(path, certificate.header, certificate.parts)
            report = check_certificate(str(path))
            assert report.accepted, report.finding
            positions = " + ".join(f"{part.nodes:,}" for part, _ in certificate.parts)
            print(f"{name:<20} {report.value.value:>5} {solved:>8.2f} {positions:>11} {size:>12,} "
                  f"{certificate.seconds:>8.2f} {report.seconds:>8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
