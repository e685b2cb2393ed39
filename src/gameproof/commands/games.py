"""`gameproof games`, `gameproof solve GAME`, `gameproof perft GAME DEPTH`: commands over every declared game."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

from gameproof.commands._files import Artefact, Naming, add_input, add_output
from gameproof.commands._position import position_arguments, state_from_args
from gameproof.commands._output import exit_codes, time_limit
from gameproof.commands._search import (backend_arguments, backend_from_args, compile_notice, note_size,
                                        compile_said, options_from_args, print_values, refuse_options, report_unknown,
                                        search_arguments, search_progress, status_line, timing)
from gameproof.commands.certificate import certificate_argument
from gameproof.errors import BadInput, Unknown
from gameproof.framework.declaration import Engine
from gameproof.framework.selfcheck import ON_LOAD
from gameproof.search.solve_journal import CHECKPOINT_SECONDS, FIRST_SAVE_SECONDS, SAVING_SHARE

if TYPE_CHECKING:
    from gameproof.framework.declaration import GameSpec
    from gameproof.framework.game import Game
    from gameproof.framework.state import RulesState
    from gameproof.search.dfpn import Options

#: Random games `gameproof games --check` plays by default, and at most.
CHECK_GAMES, MAX_CHECK_GAMES = 200, 1_000_000
GAME_HELP = ("a game name such as connect4:6,5 or othello:6, its parameters also by name (connect4:width=6,height=5; "
             "see `gameproof games`), or FILE.py[:PARAMS]")


def register(commands: argparse._SubParsersAction) -> None:
    listing = commands.add_parser("games", help="list the games every generic command takes, or describe one",
                                  description="The declared games: built in, from installed packages (entry-point "
                                  "group gameproof.games), with their parameters and defaults. Given a game's name, "
                                  "what it declares: parameters, board, symmetries, engine, notation.")
    listing.add_argument("file", nargs="?", metavar="GAME|FILE.py",
                         help="describe this game (e.g. connect4, connect4:5,4 or connect4:height=4), or list the "
                         "games declared in this file")
    listing.add_argument("--json", action="store_true", help="one JSON document on stdout")
    listing.add_argument("--check", action="store_true",
                         help="self-check each game's rules on random games from the start (FILE.py:PARAMS: that "
                         "parameter set; else the defaults); exit 2 naming the first broken rule")
    listing.add_argument("--games", type=int, default=CHECK_GAMES, metavar="N",
                         help=f"random games the check plays (default {CHECK_GAMES}; on load: {ON_LOAD})")
    listing.set_defaults(handler=run_games)

    solve = commands.add_parser("solve", help="exact value of a position and its moves (df-pn or alpha-beta)",
                                description="Exact value (win/draw/loss for the side to move) of a position of any "
                                "declared game, and the value of every legal move, by df-pn or alpha-beta (the game's "
                                "own choice unless --engine says) over kernels derived from the game's rules.",
                                epilog=exit_codes(unknown=True))
    add_input(solve, "game", reads=Naming.GAME, metavar="GAME", help=GAME_HELP)
    position_arguments(solve, 'moves played so far, e.g. "d c d" (Connect Four) or "c4 e3"')
    solve.add_argument("--value-only", action="store_true", help="skip the value of each move (faster when the mover wins)")
    solve.add_argument("--distance", action="store_true", help="also how many plies perfect play lasts (the winner "
                       "hurrying, the loser delaying), from the position and after each move")
    solve.add_argument("--score", action="store_true", help="the exact final score under perfect play (a game that "
                       "declares score(): Othello's disc difference), of the position and of each move")
    solve.add_argument("--engine", choices=[engine.value for engine in Engine],
                       help="dfpn (proof numbers) or alphabeta; default: plain play on the rules where the position's "
                       "tree is small (nothing compiled: `plain` in the report), else the game's own choice")
    solve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="search on N threads sharing one table (default 1); with --backend ray, N Ray "
                       "workers of one CPU each, a table per machine")
    add_output(solve, "--journal", writes=Artefact.JOURNAL, metavar="FILE",
               help="save the search's table to FILE every --checkpoint seconds (first after "
               f"{FIRST_SAVE_SECONDS:g} s, and on Ctrl-C where that is quick) and resume from it when it is there "
               "(df-pn); a resumed answer is confirmed by checked certificates")
    solve.add_argument("--checkpoint", type=float, default=CHECKPOINT_SECONDS, metavar="SECONDS",
                       help=f"seconds between two saves of the journal (default {CHECKPOINT_SECONDS:g}), and at least "
                       f"{SAVING_SHARE} times as long as the last save took")
    backend_arguments(solve, "threads of this process")
    certificate_argument(solve)
    solve.add_argument("--tablebase", metavar="FILE",
                       help="end the search at every position this tablebase of the game holds, with its value (an "
                       "endgame's table, from `gameproof tablebase build GAME FILE --moves ...`); on one thread, "
                       "no certificate (the answer rests on the table: `gameproof tablebase check FILE`)")
    solve.add_argument("--timeout", type=time_limit, metavar="S", help="give up after S seconds of searching and "
                       "answer unknown, exit code 3 (compiling the rules on a first run is not counted)")
    search_arguments(solve)
    solve.set_defaults(handler=run_solve)

    perft = commands.add_parser("perft", help="count the move paths of a given depth, for any game",
                                description="Perft: move paths of exactly DEPTH plies from a position, counted by the "
                                "numba kernel derived from the game's rules. A pass is a ply; games that end sooner "
                                "are not counted (--count-finished counts each as one path).")
    perft.add_argument("game", metavar="GAME", help=GAME_HELP)
    perft.add_argument("depth", type=int, metavar="DEPTH", help="plies to count (a pass is a ply)")
    position_arguments(perft, "moves played first")
    perft.add_argument("--count-finished", action="store_true", help="a game that ends before DEPTH counts as one path")
    perft.add_argument("--json", action="store_true", help="one JSON document on stdout")
    perft.add_argument("--quiet", action="store_true", help="accepted as by the other long commands (perft shows no "
                       "progress)")
    perft.set_defaults(handler=run_perft)


def run_games(args: argparse.Namespace) -> int:
    from gameproof.framework.registry import declared_specs, games_in_file

    if args.check:
        return run_check(args)
    if args.file and not args.file.endswith(".py"):
        return _describe_game(args)
    declared = games_in_file(args.file) if args.file else declared_specs()
    rows = []
    for spec in declared:
        rows.append({"name": spec.name, "usage": spec.usage, "example": spec.example,
                     "named_example": spec.named_example, "summary": spec.summary, "aliases": list(spec.aliases),
                     "parameters": _parameters(spec)})
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"games": rows})
        return 0
    from gameproof.commands._output import console

    out = console()
    for row in rows:
        out.print(f"[bold]{row['usage']:<22}[/bold] {row['summary']} (default {row['example']})", soft_wrap=True)
    widest = max(declared, key=lambda spec: len(spec.parameters))
    if widest.parameters:
        out.print(f"parameters: in the order shown ({widest.example}), {_by_name(widest)}; `gameproof games GAME` "
                  "gives a game's names", markup=False, soft_wrap=True)
    return 0


def _parameters(spec: GameSpec) -> list[dict[str, Any]]:
    return [{"name": p.name, "aliases": list(p.aliases), "default": p.default, "min": p.minimum, "max": p.maximum,
             "help": p.help} for p in spec.parameters]


def _by_name(spec: GameSpec) -> str:
    """How `spec`'s parameters are given by name (docs/games.md, "Parameters"), for a game that has some."""
    if len(spec.parameters) == 1:
        return f"or by name: {spec.named_example}"
    return (f"or by name, in any order: {spec.named_example}, or after some by position: "
            f"{spec.example_from(len(spec.parameters) - 1)}; any left out keeps its default")


def _describe_game(args: argparse.Namespace) -> int:
    """What a game (one parameter set; the defaults unless named) declares, for `gameproof games NAME`."""
    from gameproof.framework.diagram import describe_format
    from gameproof.framework.registry import load_game

    game = load_game(args.file)
    spec = game.spec
    board = game.board
    described = {
        "name": game.name, "usage": spec.usage, "example": spec.example, "named_example": spec.named_example,
        "summary": spec.summary, "aliases": list(spec.aliases), "parameters": _parameters(spec),
        "chosen": game.parameters, "remarks": list(game.remarks),
        "board": {"rows": board.rows, "cols": board.cols, "cells": board.rows * board.cols},
        "symmetries": [symmetry.value for symmetry in game.symmetries],
        "engine": "tablebase" if game.may_repeat else spec.engine.value,
        "notation": spec.notation.value, "players": list(spec.player_names), "passes": game.has_passes,
        "moves": {"parts": list(spec.parts), "codes": game.pass_move, "most": game.max_moves,
                  "turn_argument": spec.turn_argument},
        "words": game.words, "layers": game.layers, "max_plies": None if game.may_repeat else game.max_plies,
        "repetition": None if spec.repetition is None else spec.repetition.value, "score": game.has_score,
        "extra_turns": game.has_turns,
        "position_text": describe_format(game),
    }
    if args.json:
        from gameproof.commands._output import print_json

        print_json(described)
        return 0
    from gameproof.commands._output import console

    parameters = "; ".join(f"{p['name']} = {game.parameters[p['name']]} ({p['min']}..{p['max']}, default "
                           f"{p['default']}{': ' + p['help'] if p['help'] else ''}"
                           f"{''.join(f'; also {alias}' for alias in p['aliases'])})" for p in described["parameters"])
    lines = [
        f"{game.name}: {spec.summary}",
        f"usage: {spec.usage} (default {spec.example})" + (f"; {_by_name(spec)}" if spec.parameters else "")
        + "".join(f"; also called {alias}" for alias in spec.aliases),
        f"parameters: {parameters or 'none'}",
        *(f"remark: {remark}" for remark in game.remarks),
        f"board: {board.rows} rows x {board.cols} columns ({board.rows * board.cols} cells); a position is "
        f"{game.layers} layer{'s' * (game.layers != 1)} of cells in {game.words} word{'s' * (game.words != 1)}",
        f"moves: {' then '.join(spec.parts)}" + (f" (at most {game.max_moves} a position)" if not game.is_placement
                                                   else "") + (f"; a position may repeat ({spec.repetition.value} if "
                                                               "play never ends)" if game.may_repeat else
                                                               f"; a game lasts at most {game.max_plies} plies")
        + ("; the rules see the side to move" if spec.turn_argument else ""),
        f"players: {' then '.join(spec.player_names)}{'; a side with no move passes' if game.has_passes else ''}"
        + ("; the position says who moves (a move may earn another)" if game.has_turns else "")
        + ("; a final score (solve --score)" if game.has_score else ""),
        f"symmetries: {', '.join(described['symmetries'])}",
        ("engine: none of the searches (a game that may repeat): `gameproof tablebase build` solves it"
         if game.may_repeat else f"engine: {spec.engine.value} (what `gameproof solve` uses unless --engine says "
         "otherwise)"),
        f"notation: moves named by {spec.notation.value} ({_notation_example(game)})",
        f"positions (--position): {described['position_text']}",
    ]
    out = console()
    for line in lines:
        out.print(line, markup=False, soft_wrap=True)
    return 0


def _notation_example(game: Game) -> str:
    """The names of the first legal moves of the start position, e.g. ``a b c …``, ``a1 b1 c1 …`` or ``a1-a2 …``."""
    from gameproof.framework.state import RulesState

    state = RulesState(game)
    named = [state.move_name(move) for move in state.legal_moves() if move != game.pass_move]
    return " ".join(named[:3]) + " …" * (len(named) > 3) or "no first move"


def run_check(args: argparse.Namespace) -> int:
    """`gameproof games [FILE.py[:PARAMS]] --check`: the rules self-check of each game listed, N random games each."""
    from dataclasses import asdict

    from gameproof.framework.game import Game
    from gameproof.framework.registry import declared_specs, games_in_file, unchecked_game
    from gameproof.framework.selfcheck import self_check

    if not 1 <= args.games <= MAX_CHECK_GAMES:
        raise BadInput(f"--games must be 1..{MAX_CHECK_GAMES}, not {args.games}")
    if args.file is None or args.file.endswith(".py"):
        declared = declared_specs() if args.file is None else games_in_file(args.file)
        games = [Game(spec, spec.parse_parameters("")) for spec in declared]
    else:  # FILE.py:PARAMS, or a game's name: checked here only (load_game would check it first)
        games = [unchecked_game(args.file)]
    reports = []
    with status_line(args.json, "rules self-check") as show:
        for game in games:
            def progress(done: int, name: str = game.name) -> None:
                if show is not None:
                    show(f"{name}: {done:,} of {args.games:,} random games checked")

            reports.append(self_check(game, args.games, progress=progress))
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"checked": [asdict(report) | {"seconds": round(report.seconds, 6)} for report in reports]})
        return 0
    from gameproof.commands._output import console

    out = console()
    for r in reports:
        out.print(f"{r.game}: rules self-check passed: {r.playouts:,} random games, {r.positions:,} positions, "
                  f"{r.moves:,} moves played, {r.images:,} symmetry images ({', '.join(r.symmetries)}); longest game "
                  f"{r.longest} plies of " + (f"at most {r.max_plies}" if r.max_plies is not None else
                                              "a game that may repeat") + f" [{r.seconds:.2f} s]",
                  markup=False, soft_wrap=True)
    return 0


def _state(args: argparse.Namespace):
    """The position `args` name: the game's, after --moves or as --position writes it."""
    from gameproof.framework.registry import load_game

    return state_from_args(load_game(args.game), args)


def run_solve(args: argparse.Namespace) -> int:
    """`gameproof solve`: the question `args` ask (a value, an exact score, a distance), within --timeout seconds of
    searching; "unknown" and exit code 3 when the time runs out."""
    from gameproof.interrupts import time_limit as searching_within

    if args.tablebase is not None:
        refuse_options(args, _NOT_WITH_TABLEBASE, "--tablebase probes on one thread, for a value")
    try:
        with compile_notice(args.quiet or args.json) as compiling, searching_within(args.timeout):
            args.compiling = compiling
            return _answer(args)
    except Unknown as unknown:
        return report_unknown(args, unknown)


def _answer(args: argparse.Namespace) -> int:
    if args.score and not args.distance:
        from gameproof.commands._score import run_score

        return run_score(args, _sized_state)
    if args.distance:
        from gameproof.commands._distance import run_distance

        return run_distance(args, _sized_state)
    return solve_and_report(_sized_state(args), args, source=args.game)


def _sized_state(args: argparse.Namespace) -> RulesState:
    """The position `args` name, with a note on stderr where a search from it would take hours or never end; a bad
    search option, and --score for a game without a score, are refused first (one line, before the game's remarks)."""
    from gameproof.framework.registry import load_game

    game = load_game(args.game)
    options_from_args(args, game)
    if args.score and not args.distance:
        game.require_score()
    state = state_from_args(game, args)
    args.loaded = state.game.name  # what an answer of unknown names
    note_size(state, args.timeout is not None)
    return state


#: The options of `solve` that --tablebase does not take: (argument's name, its value when not given, as said).
_NOT_WITH_TABLEBASE = (("workers", 1, "--workers"), ("backend", "local", "--backend"), ("address", None, "--address"),
                       ("journal", None, "--journal"), ("certificate", None, "--certificate"),
                       ("score", False, "--score"), ("distance", False, "--distance"))


def _probe(args: argparse.Namespace, state):
    """The keys and values of the tablebase that --tablebase names, for `state`'s game; None without it."""
    if getattr(args, "tablebase", None) is None:
        return None
    from gameproof.search.tablebase.query import Tablebase

    return Tablebase(args.tablebase).probe(state.game)


def solve_and_report(state, args: argparse.Namespace, source: str | None = None) -> int:
    """Solve a position with the search options in `args` and print its value and its moves' values (and
    write a certificate of the value where `args.certificate` names a file; `source` is the game as it was
    named, ``FILE.py:PARAMS`` for a game from a file, by default its registered name)."""
    options = options_from_args(args, state.game)
    engine = Engine(args.engine) if getattr(args, "engine", None) else state.game.spec.engine
    certificate_path = getattr(args, "certificate", None)
    if certificate_path is not None:  # its folder, and what it holds, were checked with the arguments
        from gameproof.commands.certificate import refuse_another_question
        from gameproof.search.certificate import check_certifiable

        check_certifiable(state, source)
        refuse_another_question(certificate_path, state, args.force)
    quiet = args.quiet or args.json
    # `solve` goes to the workers' solve, even on one (its progress and report say more); a finished position
    # (nothing to search: its value is the game's result), and `mnk solve` (which has no workers), to the plain one.
    probe = _probe(args, state)
    compiling = getattr(args, "compiling", None)
    plainly = _solved_plainly(state, args) if probe is None and certificate_path is None else None
    if plainly is not None:
        solution, engine_name = plainly, PLAIN
        times = timing(compiling, solution.seconds)
        written = None
    elif "workers" in args and not state.is_over() and probe is None:
        solution, written = _solve_on_workers(state, args, options, engine, source, certificate_path, quiet)
        times = timing(compiling, solution.seconds)
    else:
        from gameproof.search.solve import kept_search, solve

        with search_progress(quiet) as progress:
            solution = solve(state, options, with_moves=not args.value_only, progress=progress, engine=engine,
                             keep_table=certificate_path is not None, probe=probe)
        times = timing(compiling, solution.seconds)
        written = None
        if certificate_path is not None:
            written = _write_certificate(state, source, kept_search(state.game, options), certificate_path,
                                         solution.value, quiet)
    if plainly is None:
        engine_name = engine.value
    moves = {state.move_name(m): v for m, v in solution.moves.items()}
    names = state.game.spec.player_names
    parallel = _parallel_summary(solution)
    on_ray = parallel.get("backend") == "ray"  # the tables are the Ray workers': no count of their entries
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"game": state.game.name, "played": state.record, "position": state.position,
                    "to_move": names[state.to_move],
                    "engine": engine_name, "value": solution.value, "moves": moves, "nodes": solution.nodes,
                    **times, "tt_entries": None if on_ray else solution.tt_entries,
                    "certificate": written, "tablebase": getattr(args, "tablebase", None)} | parallel)
        return 0
    from gameproof.commands._output import console

    out = console()
    print_values(out, f"{state.game.name}  {state.described()}  to move: {names[state.to_move]}",
                 state, solution.value, moves)
    entries = "on Ray" if on_ray else f"{solution.tt_entries:,} TT entries"
    out.print(f"{engine_name}: {solution.nodes:,} nodes in {times['seconds']:.3f} s{compile_said(compiling, times)}, "
              f"{entries}"
              + (f", {parallel['workers']} workers" if parallel.get("workers", 1) > 1 else "")
              + (f", ended at the positions of {args.tablebase}" if probe is not None else ""), markup=False)
    if parallel.get("journal"):
        journal_line = parallel["journal"]
        out.print(f"journal: {journal_line['path']} (saved {journal_line['saves']} time{'s' * (journal_line['saves'] != 1)}"
                  + (f"; resumed from {journal_line['resumed_nodes']:,} nodes of earlier work, "
                     f"{journal_line['confirmed']}" if journal_line["resumed_nodes"] else "") + ")",
                  markup=False, soft_wrap=True)
    if written is not None:
        parts = len(written["parts"])
        out.print(f"certificate: {written['path']} ({written['nodes']:,} positions in {parts} part{'s' * (parts > 1)}, "
                  f"{written['bytes']:,} bytes, built in {written['seconds']:.2f} s)", markup=False, soft_wrap=True)
    return 0


#: What the report names as the engine of an answer by plain play (:mod:`gameproof.search.plain`).
PLAIN = "plain"


def _solved_plainly(state: RulesState, args: argparse.Namespace) -> Any:
    """The answer of plain play on the rules, nothing compiled, where `solve` asks only for values on one local
    worker with the game's own engine and no time limit, and the position's tree is small enough; else None."""
    if "workers" not in args or state.is_over():
        return None
    asked_more = (args.workers != 1, args.backend != "local", args.address is not None, args.journal is not None,
                  args.engine is not None, args.timeout is not None)
    if any(asked_more):
        return None
    from gameproof.search.plain import solve_plainly

    return solve_plainly(state, with_moves=not args.value_only)


def _parallel_summary(solution: Any) -> dict[str, Any]:
    """What a solve on workers adds to the report: workers, the last progress, and the journal's part."""
    from gameproof.search.parallel import ParallelSolution

    if not isinstance(solution, ParallelSolution):
        return {}
    summary: dict[str, Any] = {"workers": solution.workers, "backend": solution.backend.value,
                               "progress": solution.last.to_json()}
    if solution.journal is not None:
        summary["journal"] = {"path": solution.journal, "saves": solution.saves, "resumed_nodes": solution.resumed_nodes,
                              "confirmed": solution.confirmed}
    return summary


def _solve_on_workers(state: RulesState, args: argparse.Namespace, options: Options, engine: Engine,
                      source: str | None, certificate_path: str | None, quiet: bool) -> tuple[Any, Any]:
    """`solve` (`--workers N`, `--journal FILE`, `--backend ray`): the game's engine on worker threads over one
    shared table, or on Ray workers, for the unfinished position `state`."""
    from gameproof.search.parallel import solve_on_workers

    def certificate(search, solved) -> dict[str, Any]:
        return _write_certificate(state, source, search, certificate_path, solved.value, quiet, solved.certificate)

    with status_line(quiet, f"{engine.value} starting") as show:
        def progress(now) -> None:
            if show is not None:
                root = "" if now.root is None else f"  root {_short(now.root[0])}/{_short(now.root[1])}"
                table = "  on Ray" if now.capacity is None else f"  TT {100 * now.entries / now.capacity:.0f}%" + (
                    "" if now.proven is None else f" ({_short(now.proven)} proven, {_short(now.disproven)} disproven, "
                    f"{_short(now.open)} open)")
                show(f"{engine.value}{f' ×{now.workers}' if now.workers > 1 else ''} {_short(now.nodes)} nodes "
                     f"{_short(now.nodes_per_second)}/s{root}{table}")

        solution = solve_on_workers(state, options, workers=args.workers, with_moves=not args.value_only,
                                    engine=engine, journal=args.journal, checkpoint_seconds=args.checkpoint,
                                    progress=progress, then=None if certificate_path is None else certificate,
                                    backend=backend_from_args(args), address=args.address, confirming=show)
    return solution, solution.then


def _short(count: float) -> str:
    """A count in at most four digits and a unit: 987, 12.3k, 4.56M, 1.23G."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if count >= size:
            return f"{count / size:.3g}{unit}"
    return f"{count:.0f}"


def _write_certificate(state: RulesState, source: str | None, search, path: str, value: str,
                       quiet: bool, built: Any = None) -> dict[str, Any]:
    """Build the certificate of `state`'s value (`value`, as solved) from `search`, a df-pn search whose table
    may hold the solve, and write it to `path` (`source`: the game as it was named); `built`, a certificate
    already built and checked (the one that confirmed a resumed solve), is written as it is."""
    from gameproof.commands.certificate import describe_certificate
    from gameproof.search.certificate import write_value_certificate

    with status_line(quiet, "certificate: starting") as show:
        def progress(positions: int, reproved: int) -> None:
            if show is not None:
                show(f"certificate: {positions:,} positions" + (f", {reproved:,} df-pn nodes proving again what the "
                                                                 "table lost" if reproved else ""))

        certificate, size = write_value_certificate(path, state, search, source=source, progress=progress,
                                                    expect=value, built=built)
    return describe_certificate(path, certificate, size)


def run_perft(args: argparse.Namespace) -> int:
    from gameproof.search.perft import check_depth, fast_perft

    state = _state(args)
    check_depth(state.game, args.depth)
    fast_perft(state, 1)  # compile (or load) the kernel before timing
    started = time.perf_counter()
    paths = fast_perft(state, args.depth, count_finished=args.count_finished)
    seconds = time.perf_counter() - started
    if args.json:
        from gameproof.commands._output import print_json

        print_json({"game": state.game.name, "played": state.record, "position": state.position, "depth": args.depth,
                    "paths": paths, "count_finished": args.count_finished, "seconds": round(seconds, 6)})
        return 0
    from gameproof.commands._output import console

    given = "" if state.root is None else f"  from {state.root_position}"
    console().print(f"{state.game.name} perft({args.depth}) = {paths}{given}  [{seconds:.3f} s]", markup=False)
    return 0
