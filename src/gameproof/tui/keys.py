"""Square names typed key by key (a column letter, then the row number), without Textual."""

from __future__ import annotations

from gameproof.framework.declaration import is_ascii_number


class SquareEntry:
    """Collects a typed square name on a ``rows`` × ``cols`` board; letters in ``reserved`` are left to commands.
    With ``columns_only`` (games played by columns) a column letter is a whole name.

    >>> entry = SquareEntry(rows=3, cols=3)
    >>> entry.push("b"), entry.push("2")
    (None, 'b2')
    """

    def __init__(self, rows: int, cols: int, reserved: str = "", columns_only: bool = False) -> None:
        self.rows = rows
        self.letters = "".join(chr(ord("a") + c) for c in range(cols) if chr(ord("a") + c) not in reserved)
        self.columns_only = columns_only
        self.text = ""

    def accepts(self, char: str | None) -> bool:
        """Whether ``char`` can go into a square name now (a column letter any time, a digit after one)."""
        if not char or len(char) != 1:
            return False
        return char.lower() in self.letters or (is_ascii_number(char) and self.text != "")

    def push(self, char: str) -> str | None:
        """Add an accepted key; returns the name once no longer name could follow (and clears it)."""
        if is_ascii_number(char):
            self.text += char
        else:
            self.text = char.lower()
        digits = self.text[1:]
        if self.columns_only or (digits and (len(digits) == 2 or int(digits) * 10 > self.rows)):
            return self.take()
        return None

    def take(self) -> str:
        """The name typed so far, clearing it."""
        text, self.text = self.text, ""
        return text
