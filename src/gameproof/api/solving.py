"""Exact answers about one position: :func:`solve` (values, scores, distances) and :func:`perft`."""

from __future__ import annotations

from typing import Any

from gameproof.answers import Value
from gameproof.api.positions import Position, checked_position
from gameproof.api.results import ProgressCallback, Solution, Source
from gameproof.api.running import Reporter, limited, options_for
from gameproof.errors import BadInput
from gameproof.framework.declaration import Engine
from gameproof.framework.state import RulesState
from gameproof.search.dfpn import Options


def solve(position: Position, *, score: bool = False, distance: bool = False, value_only: bool = False,
          engine: Engine | str | None = None, workers: int = 1, tt_mb: float = 128.0, timeout: float | None = None,
          progress: ProgressCallback | None = None) -> Solution:
    """The value of `position` for the side to move under perfect play, and each legal move's (unless
    `value_only`), as ``gameproof solve`` finds them; with `score`, the exact final score too (a game that declares
    one), and with `distance` the plies to the end. `engine`: ``"dfpn"`` or ``"alphabeta"`` (by default the game's
    own); `workers` threads share one table of `tt_mb` MiB (a value only). Unknown when `timeout` seconds of
    searching pass first; `progress` is told the nodes searched now and then."""
    state = checked_position(position, "solve").state.copy()
    chosen = _engine(engine)
    options = options_for(state.game, tt_mb)
    if (score or distance) and workers != 1:
        raise BadInput("scores and distances are searched on one thread: give workers=1")
    if distance and chosen is not None:
        raise BadInput("distances are searched by a search of their own: give no engine with distance=True")
    report = Reporter(progress)
    parts: list[dict[str, Any]] = []
    with limited(timeout) as timing:
        if score:
            parts.append(_scores(state, options, chosen, not value_only, report))
        if distance:
            parts.append(_distances(state, options, not value_only, report))
        if not parts:
            parts.append(_values(state, options, chosen, not value_only, workers, report))
    nodes = sum(part.pop("nodes") for part in parts)
    found = {name: each for part in parts for name, each in part.items()}
    return Solution(state.game.name, state.position, position.player, **found, nodes=nodes, seconds=timing.seconds,
                    compile_seconds=timing.compile_seconds)


def _engine(engine: Engine | str | None) -> Engine | None:
    """The engine `engine` names (None: the game's own); BadInput for a name of none."""
    if engine is None or isinstance(engine, Engine):
        return engine
    try:
        return Engine(engine)
    except ValueError:
        names = ", ".join(each.value for each in Engine)
        raise BadInput(f"engine must be one of {names}, not {engine!r:.40}") from None


def _names(state: RulesState, by_code: dict[int, Any]) -> dict[str, Any]:
    return {state.move_name(code): each for code, each in by_code.items()}


def _values(state: RulesState, options: Options, engine: Engine | None, with_moves: bool, workers: int,
            report: Reporter) -> dict[str, Any]:
    """The fields of a value's solution: by the game's search, on `workers` threads where more than one."""
    chosen = engine or state.game.spec.engine
    if workers == 1 or state.is_over():
        from gameproof.search.solve import solve as solve_value

        solution = solve_value(state, options, with_moves=with_moves, engine=chosen,
                               progress=report.counting(f"{chosen.value} nodes"))
    else:
        from gameproof.search.parallel import solve_on_workers

        counting = report.counting(f"{chosen.value} nodes on {workers} threads")
        solution = solve_on_workers(state, options, workers=workers, with_moves=with_moves, engine=chosen,
                                    progress=None if counting is None else lambda now: counting(now.nodes))
    return {"value": solution.value, "moves": _names(state, solution.moves), "source": Source.of(chosen),
            "nodes": solution.nodes}


def _scores(state: RulesState, options: Options, engine: Engine | None, with_moves: bool,
            report: Reporter) -> dict[str, Any]:
    """The fields of an exact score's solution (the values follow from the scores' signs)."""
    from gameproof.search.score import exact_score

    chosen = engine or state.game.spec.engine
    solution = exact_score(state, options, with_moves=with_moves, engine=chosen,
                           progress=report.counting(f"score: {chosen.value} nodes"))
    return {"value": Value.of_score(solution.score), "score": solution.score,
            "moves": {name: Value.of_score(each) for name, each in _names(state, solution.moves).items()},
            "move_scores": _names(state, solution.moves), "source": Source.of(chosen), "nodes": solution.nodes}


def _distances(state: RulesState, options: Options, with_moves: bool, report: Reporter) -> dict[str, Any]:
    """The fields of a distance's solution."""
    from gameproof.search.distance import distances

    solution = distances(state, options, report.counting("distance nodes"), with_moves=with_moves)
    return {"value": solution.value, "distance": solution.plies,
            "moves": {name: outcome.value for name, outcome in _names(state, solution.moves).items()},
            "move_distances": {name: outcome.plies for name, outcome in _names(state, solution.moves).items()},
            "source": Source.ALPHABETA, "nodes": solution.nodes}


def perft(position: Position, depth: int, *, count_finished: bool = False, timeout: float | None = None) -> int:
    """The number of move paths of exactly `depth` plies from `position` (a pass is a ply; a game that ends sooner
    counts as one path only with `count_finished`), by the kernel compiled from the game's rules. Unknown when
    `timeout` seconds pass first."""
    from gameproof.search.perft import check_depth, fast_perft

    check_depth(checked_position(position, "perft").state.game, depth)
    with limited(timeout):
        return fast_perft(position.state, depth, count_finished=count_finished)
