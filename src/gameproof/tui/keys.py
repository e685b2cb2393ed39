"""Square names typed key by key (a column letter, then the row number), without Textual."""

from __future__ import annotations

from collections.abc import Container

from gameproof.framework.declaration import is_ascii_number


class SquareEntry:
    """Collects a square name typed on a board of ``rows`` rows: a letter, then the row's digits; with
    ``columns_only`` (games played by columns) a letter is a whole name. Any letter or digit is taken, those of no
    square of the board too, so that the game refuses the name in words rather than the keys going unanswered;
    a digit with no letter before it is a whole name. The screen leaves the keys of its commands to them.

    >>> entry = SquareEntry(rows=3)
    >>> entry.push("b"), entry.push("2"), entry.push("z"), entry.push("9"), entry.push("7")
    (None, 'b2', None, 'z9', '7')
    """

    def __init__(self, rows: int, columns_only: bool = False) -> None:
        self.rows = rows
        self.columns_only = columns_only
        self.text = ""

    def accepts(self, char: str | None) -> bool:
        """Whether ``char`` can go into a square name: an ASCII letter or digit."""
        return char is not None and len(char) == 1 and char.isascii() and (char.isalpha() or is_ascii_number(char))

    def takes(self, key: str, char: str | None, commands: Container[str]) -> bool:
        """Whether the key ``key`` (typing ``char``) goes into the name: a letter or digit that is not the key of one
        of the screen's ``commands``."""
        return key not in commands and self.accepts(char)

    def push(self, char: str) -> str | None:
        """Add an accepted key; returns the name once no longer name could follow (and clears it)."""
        if not is_ascii_number(char):
            self.text = char.lower()
        elif self.text:
            self.text += char
        else:
            return char
        digits = self.text[1:]
        if self.columns_only or (digits and (len(digits) == 2 or int(digits) * 10 > self.rows)):
            return self.take()
        return None

    def take(self) -> str:
        """The name typed so far, clearing it."""
        text, self.text = self.text, ""
        return text
