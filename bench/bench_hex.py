"""Hex with every opening (issue 50 item 2): the map of each opening's value against Benzene's published one, and
certificates, as whole commands timed on this machine.

1. ``gameproof solve hex:N --workers W --tt-mb T --certificate FILE --json``: every opening's value and a
   certificate of the first player's win; the map is compared with the published one (6×6: Benzene's regression
   data) and the certificate checked (``gameproof certificate check FILE --workers W``).
2. With ``--each-opening``: each opening up to the half-turn, ``solve hex:N --moves X --value-only --certificate``,
   W solves at a time, each certificate checked: every value of the map certified.

Run: .venv/bin/python bench/bench_hex.py [--size 6] [--workers 2] [--tt-mb 8192] [--each-opening] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "games"))
from test_hex import BENZENE_6X6, WINNING_5X5, WINNING_OPENINGS  # noqa: E402

from gameproof.framework.registry import load_game  # noqa: E402
from gameproof.framework.state import RulesState  # noqa: E402

GAMEPROOF = [sys.executable, "-m", "gameproof"]
#: The openings that win for the first player: published (6×6: Benzene), or solved here before (5×5; the smallest
#: boards by the tests' reference minimax).
PUBLISHED = {**WINNING_OPENINGS, 5: WINNING_5X5, 6: BENZENE_6X6}


def timed(arguments: list[str]) -> tuple[dict, float]:
    """The JSON document a gameproof command prints, and its wall time (the command must succeed)."""
    start = time.perf_counter()
    done = subprocess.run([*GAMEPROOF, *arguments, "--json", "--quiet"], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"gameproof {' '.join(arguments)}: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout), seconds


def checked(path: Path, workers: int) -> tuple[bool, float]:
    report, seconds = timed(["certificate", "check", str(path), "--workers", str(workers)])
    return report["accepted"], seconds


def whole_map(size: int, workers: int, tt_mb: int, folder: Path) -> dict:
    """Step 1: the solve of every opening with its certificate, then the check."""
    path = folder / f"hex{size}.cert"
    solved, seconds = timed(["solve", f"hex:{size}", "--workers", str(workers), "--tt-mb", str(tt_mb),
                             "--certificate", str(path)])
    winning = {move for move, value in solved["moves"].items() if value == "win"}
    accepted, check_seconds = checked(path, workers)
    return {"value": solved["value"], "nodes": solved["nodes"], "seconds": round(seconds, 1),
            "winning_openings": len(winning), "equals_published": winning == PUBLISHED.get(size),
            "certificate_positions": solved["certificate"]["nodes"], "certificate_accepted": accepted,
            "check_seconds": round(check_seconds, 1)}


def distinct_openings(size: int) -> list[str]:
    """One opening of each pair that the half-turn maps onto each other (the centre of an odd board alone)."""
    state, seen, names = RulesState(load_game(f"hex:{size}")), set(), []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.key not in seen:
            seen.add(child.key)
            names.append(state.move_name(move))
    return names


def each_opening(size: int, workers: int, tt_mb: int, folder: Path) -> dict:
    """Step 2: every distinct opening solved and certified on its own, `workers` at a time."""
    def one(opening: str) -> dict:
        path = folder / f"{opening}.cert"
        solved, seconds = timed(["solve", f"hex:{size}", "--moves", opening, "--value-only", "--tt-mb",
                                 str(tt_mb // workers), "--certificate", str(path)])
        accepted, check_seconds = checked(path, 1)
        first_wins = solved["value"] == "loss"  # the value is the second player's, to move after the opening
        row = {"opening": opening, "first_player_wins": first_wins, "nodes": solved["nodes"],
               "seconds": round(seconds, 1), "certificate_positions": solved["certificate"]["nodes"],
               "accepted": accepted, "check_seconds": round(check_seconds, 1)}
        print(json.dumps(row), file=sys.stderr, flush=True)  # progress: each opening as it is done
        return row

    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        rows = list(pool.map(one, distinct_openings(size)))
    published = PUBLISHED.get(size)
    return {"openings": rows, "seconds": round(time.perf_counter() - start, 1),
            "all_accepted": all(row["accepted"] for row in rows),
            "equals_published": None if published is None else all(
                row["first_player_wins"] == (row["opening"] in published) for row in rows)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=6, help="the board's side (default 6)")
    parser.add_argument("--workers", type=int, default=2, help="threads of the solve, and solves at a time (default 2)")
    parser.add_argument("--tt-mb", type=int, default=8192, help="table MiB, shared by the solves at a time")
    parser.add_argument("--each-opening", action="store_true", help="also certify each opening on its own")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        report = {"size": args.size, "workers": args.workers,
                  "map": whole_map(args.size, args.workers, args.tt_mb, folder)}
        if args.each_opening:
            report["each_opening"] = each_opening(args.size, args.workers, args.tt_mb, folder)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    whole = report["map"]
    print(f"hex:{args.size} every opening: {whole['value']}, {whole['nodes']:,} nodes, {whole['seconds']} s; "
          f"{whole['winning_openings']} winning openings, as published: {whole['equals_published']}; certificate "
          f"{whole['certificate_positions']:,} positions, accepted: {whole['certificate_accepted']} "
          f"({whole['check_seconds']} s)")
    if args.each_opening:
        each = report["each_opening"]
        print(f"{'opening':<8} {'first wins':>10} {'nodes':>12} {'solve s':>8} {'positions':>10} {'check s':>8}")
        for row in each["openings"]:
            print(f"{row['opening']:<8} {str(row['first_player_wins']):>10} {row['nodes']:>12,} {row['seconds']:>8} "
                  f"{row['certificate_positions']:>10,} {row['check_seconds']:>8}{'' if row['accepted'] else ' REJECTED'}")
        print(f"each opening: {each['seconds']} s wall, all accepted: {each['all_accepted']}, as published: "
              f"{each['equals_published']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
