"""Documentation examples run: every `>>>` example in README.md and docs/*.md."""

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_examples_in_documentation_run(document):
    failures, _ = doctest.testfile(str(document), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert failures == 0
