"""Exceptions shared across gameproof."""


class BadInput(ValueError):
    """Input a user gave that cannot be used; the CLI prints it as one line and exits with code 2."""
