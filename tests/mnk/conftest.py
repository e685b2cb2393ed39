import json
from pathlib import Path

import pytest

GOLDEN = json.loads((Path(__file__).parent / "golden_values.json").read_text())


@pytest.fixture(scope="session")
def golden():
    return GOLDEN


def pytest_collection_modifyitems(config, items):
    """Skip this directory's `slow` tests unless they were selected with `-m slow`."""
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    here = str(Path(__file__).parent)
    for item in items:
        if "slow" in item.keywords and str(item.path).startswith(here):
            item.add_marker(skip)
