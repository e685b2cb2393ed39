"""Helpers for the Textual tests: read a screenshot back as plain text rows."""

import re
from html import unescape

import pytest

_TEXT = re.compile(r'<text [^>]*x="([\d.]+)"[^>]*textLength="([\d.]+)"[^>]*clip-path="url\(#[\w-]+-line-(\d+)\)"[^>]*>([^<]*)</text>')


def screen_rows(svg: str) -> list[str]:
    """The characters of a Textual SVG screenshot, one string per terminal row (colours and styles dropped)."""
    rows: dict[int, dict[int, str]] = {}
    for x, length, line, content in _TEXT.findall(svg):
        content = unescape(content).replace("\xa0", " ")
        width = float(length) / len(content)
        start = round(float(x) / width)
        for offset, char in enumerate(content):
            rows.setdefault(int(line), {})[start + offset] = char
    height = max(rows, default=-1) + 1
    return ["".join(cells.get(c, " ") for c in range(max(cells, default=-1) + 1)).rstrip()
            for cells in (rows.get(r, {}) for r in range(height))]


@pytest.fixture
def screen():
    """``screen(app)``: the app's screen as text rows."""
    return lambda app: screen_rows(app.export_screenshot())


@pytest.fixture
def screen_rows_of():
    """``screen_rows_of(svg)``: a screenshot's text rows."""
    return screen_rows
