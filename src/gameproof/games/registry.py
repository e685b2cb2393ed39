"""Games by name, from their declarations: ``connect4:7,6``, ``othello:6``, … and games from elsewhere.

Built-in games are the :class:`~gameproof.games.declaration.GameSpec` objects named ``GAME`` (or listed in
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
from gameproof.games.declaration import GameSpec
from gameproof.games.game import Game
from gameproof.games.protocol import GameState
from gameproof.loading import import_file

BUILTIN = ("gameproof.games.connect4", "gameproof.games.othello.rules", "gameproof.games.mnk.rules")
ENTRY_POINT_GROUP = "gameproof.games"
EXAMPLES = ("othello", "mnk:3,3,3", "mnk-misere:4,4,3", "mnk-notakto:3,3,3", "connect4:5,4", "othello:4")


def _declared_in(module: ModuleType) -> list[GameSpec]:
    if isinstance(getattr(module, "GAMES", None), (tuple, list)):
        return list(module.GAMES)
    if isinstance(getattr(module, "GAME", None), GameSpec):
        return [module.GAME]
    return []


@cache
def specs() -> dict[str, GameSpec]:
    """Every known game by name and alias: the built-ins, then those of installed packages."""
    found: dict[str, GameSpec] = {}
    for module_name in BUILTIN:
        for spec in _declared_in(importlib.import_module(module_name)):
            found[spec.name] = spec
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as error:  # a broken plug-in must not break the built-in games
            print(f"gameproof: warning: game plug-in {entry.name!r} failed to load: {error}", file=sys.stderr)
            continue
        for spec in [loaded] if isinstance(loaded, GameSpec) else _declared_in(loaded):
            found.setdefault(spec.name, spec)
    for spec in list(found.values()):
        for alias in spec.aliases:
            found.setdefault(alias, spec)
    return found


def games_in_file(path: str | Path) -> list[GameSpec]:
    """The games a Python file declares (BadInput when it cannot be read or declares none)."""
    declared = _declared_in(import_file(path))
    if not declared:
        raise BadInput(f"{path} declares no game (a GameSpec named GAME, or a list GAMES)")
    return declared


@cache
def load_game(name: str) -> Game:
    """The game called `name` (``connect4:6,5``; the defaults when no parameters are given), or one
    declared in a file (``my_game.py`` or ``my_game.py:PARAMS``)."""
    text = name.strip()
    base, _, parameters = text.partition(":")
    if base.endswith(".py"):
        spec = games_in_file(base)[0]
    else:
        spec = specs().get(base.lower())
        if spec is None:
            raise BadInput(f"unknown game {name!r}; known: {', '.join(known_names())} (see `gameproof games`)")
    return Game(spec, spec.parse_parameters(parameters))


def known_names() -> list[str]:
    """Every game's name with its parameters, e.g. ``connect4:W,H``."""
    return sorted({spec.usage for spec in specs().values()})


def start_position(name: str) -> GameState:
    """The initial position of the game called `name`."""
    from gameproof.games.state import RulesState

    return RulesState(load_game(name.strip().lower()))
