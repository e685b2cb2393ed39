"""`gameproof othello …`: perft, positions and (later) reachability for Othello."""

from __future__ import annotations

import argparse
import sys
import time

from gameproof.commands._output import console, print_json, progress_console
from gameproof.errors import BadInput


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("othello", help="Othello: perft, positions", description=__doc__)
    sub = parser.add_subparsers(dest="othello_command", required=True, metavar="COMMAND")

    perft = sub.add_parser(
        "perft",
        help="count move paths from the start position",
        description="Count move paths of DEPTH plies from the start (numba kernel, bulk counting at the last ply).",
    )
    perft.add_argument("depth", type=int, metavar="DEPTH")
    perft.add_argument(
        "--convention",
        choices=("edax", "bik", "nopass"),
        default="edax",
        help="edax: a pass is a ply, finished games not counted (OEIS A124004); "
        "bik: finished games are leaves; nopass: a pass is not a ply",
    )
    perft.add_argument("--divide", action="store_true", help="also print the count below each first move")
    perft.add_argument("--json", action="store_true", help="print one JSON object")
    perft.set_defaults(handler=run_perft)

    show = sub.add_parser(
        "show",
        help="show a position, its legal moves and disc counts",
        description="Show the position after RECORD (e.g. f5d6c3), or one given by --board/--to-move "
        "or --player/--opponent hex bitboards.",
    )
    show.add_argument("record", nargs="?", metavar="RECORD", help="move record such as f5d6c3 (passes optional)")
    show.add_argument("--board", help="64 characters a1..h8 row-major: X black, O white, - empty")
    show.add_argument("--player", metavar="HEX", help="bitboard of the side to move, in hex")
    show.add_argument("--opponent", metavar="HEX", help="bitboard of the other side, in hex")
    show.add_argument("--to-move", default=None, help="black or white (with --board, --player/--opponent)")
    show.add_argument("--svg", metavar="FILE", help="also write an SVG drawing of the position")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.set_defaults(handler=run_show)


def run_perft(args: argparse.Namespace) -> int:
    from gameproof.games.othello.perft import perft, perft_divide
    from gameproof.games.othello.position import Position

    if not 0 <= args.depth <= 60:
        raise BadInput(f"depth must be between 0 and 60, got {args.depth}")
    start = Position.start()
    perft(start.player, start.opponent, 1)  # load the compiled kernel before timing
    began = time.perf_counter()
    divide = None
    if args.divide or (args.depth >= 11 and not args.json and sys.stderr.isatty()):
        divide = _divide_with_progress(start, args.depth, args.convention, quiet=args.json)
        nodes = sum(divide.values())
    else:
        nodes = perft(start.player, start.opponent, args.depth, args.convention)
    seconds = time.perf_counter() - began
    result = {
        "depth": args.depth,
        "convention": args.convention,
        "nodes": nodes,
        "seconds": round(seconds, 6),
        "leaves_per_second": round(nodes / seconds) if seconds > 0 else None,
    }
    if args.divide:
        result["divide"] = divide
    if args.json:
        print_json(result)
        return 0
    out = console()
    if args.divide:
        for move, count in divide.items():
            out.print(f"{move}: {count}")
    rate = f"{nodes / seconds / 1e6:.1f}M leaves/s" if seconds > 0 else ""
    out.print(f"perft({args.depth}, {args.convention}) = {nodes}  [{seconds:.3f} s, {rate}]")
    return 0


def _divide_with_progress(start, depth: int, convention: str, quiet: bool) -> dict[str, int]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from gameproof.games.othello.perft import perft_divide

    columns = (TextColumn("perft {task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=progress_console(), transient=True, disable=quiet) as progress:
        task = progress.add_task(str(depth), total=len(start.legal_moves()))
        return perft_divide(start, depth, convention, on_move=lambda move, count: progress.advance(task))


def _position_from_args(args: argparse.Namespace):
    from gameproof.games.othello.notation import parse_hex_bitboard
    from gameproof.games.othello.position import Position

    given = [args.record is not None, args.board is not None, args.player is not None or args.opponent is not None]
    if sum(given) != 1:
        raise BadInput("give exactly one of RECORD, --board, or --player with --opponent")
    if args.record is not None:
        if args.to_move is not None:
            raise BadInput("--to-move goes with --board or --player/--opponent, not with a record")
        return Position.from_record(args.record)
    if args.board is not None:
        return Position(args.board, args.to_move or "black")
    if args.player is None or args.opponent is None:
        raise BadInput("--player and --opponent go together")
    return Position.from_bitboards(
        parse_hex_bitboard(args.player), parse_hex_bitboard(args.opponent), args.to_move or "black"
    )


def position_summary(position) -> dict:
    """The JSON description of a position used by `othello show`."""
    from gameproof.games.othello.notation import format_hex_bitboard, square_name

    black, white = position.disc_counts()
    moves = [square_name(s) for s in range(64) if position.legal_move_mask() >> s & 1]
    return {
        "to_move": position.color,
        "legal_move_count": len(moves),
        "legal_moves": moves,
        "board": position.board,
        "player": format_hex_bitboard(position.player),
        "opponent": format_hex_bitboard(position.opponent),
        "discs": {"black": black, "white": white},
        "game_over": position.is_over(),
    }


def run_show(args: argparse.Namespace) -> int:
    position = _position_from_args(args)
    if args.svg:
        from gameproof.games.othello.svg import position_svg

        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(position_svg(position))
        except OSError as error:
            raise BadInput(f"cannot write {args.svg}: {error.strerror}") from None
    if args.json:
        print_json(position_summary(position))
    else:
        out = console()
        out.print(str(position))
        summary = position_summary(position)
        out.print("legal moves: " + (" ".join(summary["legal_moves"]) or "none"))
    return 0
