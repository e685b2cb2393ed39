"""Exceptions shared across gameproof."""


class BadInput(ValueError):
    """Input a user gave that cannot be used; the CLI prints it as one line and exits with code 2."""


class RunFailed(RuntimeError):
    """Work that could not be finished, whatever the input (a worker died, two answers disagree, a proof could not
    be read back); the CLI prints it as one line and exits with code 5."""
