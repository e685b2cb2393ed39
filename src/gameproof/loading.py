"""Importing a user's Python file (a harness, a predicate, a game) by its path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from gameproof.errors import BadInput


def import_file(path: str | Path) -> ModuleType:
    """The module in the file at `path`, imported once per process; BadInput (one line) when it cannot be.

    The module is in ``sys.modules`` while it runs, so it can name itself (``sys.modules[__name__]``)."""
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"{path} is a folder, not a Python file" if path.is_dir() else f"no such file: {path}")
    module_name = f"_gameproof_file_{abs(hash(str(path.resolve())))}"
    module = sys.modules.get(module_name)
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise BadInput(f"cannot import {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BadInput:
        del sys.modules[module_name]
        raise
    except (Exception, SystemExit) as error:  # a file that calls sys.exit() while imported is broken too
        del sys.modules[module_name]
        raise BadInput(f"cannot import {path}: {type(error).__name__}: {error}") from None
    return module
