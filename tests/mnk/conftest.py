import json
from pathlib import Path

import pytest

GOLDEN = json.loads((Path(__file__).parent / "golden_values.json").read_text())


@pytest.fixture(scope="session")
def golden():
    return GOLDEN

