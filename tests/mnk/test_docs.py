import doctest
from pathlib import Path


def test_mnk_docs_examples_run():
    path = Path(__file__).parents[2] / "docs" / "mnk.md"
    failures, tried = doctest.testfile(str(path), module_relative=False)
    assert tried > 0 and failures == 0
