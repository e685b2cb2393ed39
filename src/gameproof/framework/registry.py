"""Games by name, from their declarations: ``connect4:7,6``, ``othello:6``, … and games from elsewhere.

Built-in games are the :class:`~gameproof.framework.declaration.GameSpec` objects named ``GAME`` (or listed in
``GAMES``) in the modules of :data:`BUILTIN`. An installed package adds games through the entry-point group
``gameproof.games`` (each entry a GameSpec, or a module holding ``GAME``/``GAMES``), and a game can be
loaded straight from its file: ``path/to/game.py`` or ``path/to/game.py:PARAMS``.
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from gameproof.errors import BadInput
from gameproof.framework.declaration import GameSpec, RulesError
from gameproof.framework.game import Game
from gameproof.framework.state import GameState
from gameproof.framework.selfcheck import self_check, shown
from gameproof.loading import import_file

BUILTIN = ("gameproof.games.connect4", "gameproof.games.othello.rules", "gameproof.games.mnk.rules",
           "gameproof.games.amazons", "gameproof.games.hex", "gameproof.games.breakthrough", "gameproof.games.clobber",
           "gameproof.games.dots_boxes", "gameproof.games.kalah", "gameproof.games.dodgem.rules",
           "gameproof.games.morris3.rules")
ENTRY_POINT_GROUP = "gameproof.games"
EXAMPLES = ("othello", "mnk:3,3,3", "mnk-misere:4,4,3", "mnk-notakto:3,3,3", "connect4:5,4", "othello:4")


def _declared_in(module: ModuleType, source: str) -> list[GameSpec]:
    """The GameSpecs a module declares as ``GAMES`` (a list or tuple) or ``GAME``; RulesError, naming the
    module as `source`, when either is something else."""
    if hasattr(module, "GAMES"):
        declared = module.GAMES
        if not isinstance(declared, (tuple, list)) or not all(isinstance(spec, GameSpec) for spec in declared):
            raise RulesError(f"{source}: GAMES must be a list of GameSpec declarations, not {shown(declared)}")
        return list(declared)
    if hasattr(module, "GAME"):
        if not isinstance(module.GAME, GameSpec):
            raise RulesError(f"{source}: GAME must be a GameSpec declaration, not {shown(module.GAME)}")
        return [module.GAME]
    return []


@cache
def specs() -> dict[str, GameSpec]:
    """Every known game by name and alias: the built-ins, then those of installed packages."""
    found: dict[str, GameSpec] = {spec.name: spec for spec in _builtin_specs()}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
            declared = [loaded] if isinstance(loaded, GameSpec) else _declared_in(loaded, entry.name)
        except Exception as error:  # a broken plug-in must not break the built-in games
            print(f"gameproof: warning: game plug-in {entry.name!r} failed to load: {error}", file=sys.stderr)
            continue
        for spec in declared:
            found.setdefault(spec.name, spec)
    for spec in list(found.values()):
        for alias in spec.aliases:
            found.setdefault(alias, spec)
    return found


def games_in_file(path: str | Path) -> list[GameSpec]:
    """The games a Python file declares (BadInput when it cannot be read or declares none)."""
    declared = _declared_in(import_file(path), str(path))
    if not declared:
        raise BadInput(f"{path} declares no game (a GameSpec named GAME, or a list GAMES)")
    return declared


def declared_specs() -> list[GameSpec]:
    """Every declared game once (under its own name, not its aliases), by name."""
    return [spec for known, spec in sorted(specs().items()) if known == spec.name]


@cache
def load_game(name: str) -> Game:
    """The game called `name` (``connect4:6,5``; the defaults when no parameters are given), or one
    declared in a file (``my_game.py`` or ``my_game.py:PARAMS``). A game that is not built in has its rules
    self-checked first (:mod:`gameproof.framework.selfcheck`)."""
    game = unchecked_game(name)
    if not is_builtin(game.spec):
        self_check(game)
    return game


def rules_file(name: str) -> str | None:
    """The file a game named `name` is loaded from (``my_game.py`` for ``my_game.py:PARAMS``); None for a
    game known by its name."""
    base = name.strip().partition(":")[0]
    return base if base.endswith(".py") else None


def recorded_name(game: Game, source: str | None = None) -> str:
    """The name a file records `game` by, whatever form `source` (the game as it was named) gave its parameters in:
    its name with them by position (``connect4:5,4``), after the rules file `source` names for a game loaded from a
    file (``my_game.py:5,4``)."""
    path = rules_file(source or "")
    if path is None:
        return game.name
    parameters = game.name.partition(":")[2]
    return f"{path.strip()}:{parameters}" if parameters else path.strip()


def unchecked_game(name: str) -> Game:
    """The game called `name`, as :func:`load_game` finds it, without the self-check."""
    base, _, parameters = name.strip().partition(":")
    if (path := rules_file(name)) is not None:
        spec = games_in_file(path)[0]
    else:
        spec = specs().get(base.lower())
        if spec is None:
            raise BadInput(f"unknown game {name!r}{_suggestion(base.lower())}; known: {', '.join(known_names())} "
                           "(see `gameproof games`)")
    return Game(spec, spec.parse_parameters(parameters))


#: Names people try for games gameproof knows by another name (and parameters).
KNOWN_AS = {"tictactoe": "mnk:3,3,3", "tic-tac-toe": "mnk:3,3,3", "ttt": "mnk:3,3,3", "noughts-and-crosses": "mnk:3,3,3",
            "gomoku": "mnk:15,15,5", "notakto": "mnk-notakto:3,3,3",
            "connect-four": "connect4", "connectfour": "connect4", "fourinarow": "connect4",
            "dotsandboxes": "dots-boxes", "mancala": "kalah", "three-mens-morris": "morris3"}


def _suggestion(name: str) -> str:
    """``" (did you mean connect4?)"`` for a name close to a known one (or that people use for one); else nothing."""
    import difflib

    if name in KNOWN_AS:
        return f" (did you mean {KNOWN_AS[name]}?)"
    close = difflib.get_close_matches(name, [*specs(), *KNOWN_AS], n=1, cutoff=0.75)
    return f" (did you mean {KNOWN_AS.get(close[0], close[0])}?)" if close else ""


def is_builtin(spec: GameSpec) -> bool:
    """Whether `spec` is one of gameproof's own declarations (whose rules and symmetries its tests check), not a
    user's declaration that reuses their rules with other symmetries, say."""
    return any(spec is builtin for builtin in _builtin_specs())


@cache
def _builtin_specs() -> tuple[GameSpec, ...]:
    return tuple(spec for module_name in BUILTIN for spec in _declared_in(importlib.import_module(module_name),
                                                                              module_name))


def known_names() -> list[str]:
    """Every game's name with its parameters, e.g. ``connect4:W,H``."""
    return sorted({spec.usage for spec in specs().values()})


def start_position(name: str) -> GameState:
    """The initial position of the game called `name`."""
    from gameproof.framework.state import RulesState

    return RulesState(load_game(name.strip().lower()))
