"""Exceptions shared across gameproof."""


class BadInput(ValueError):
    """Input a user gave that cannot be used; the CLI prints it as one line and exits with code 2."""


class RunFailed(RuntimeError):
    """Work that could not be finished, whatever the input (a worker died, two answers disagree, a proof could not
    be read back); the CLI prints it as one line and exits with code 5."""


class Unknown(Exception):
    """No answer within the time a caller allowed (``--timeout``, ``timeout=``): neither a finding nor a failure.
    The CLI prints it as the answer "unknown" and exits with code 3."""


class Interrupted(KeyboardInterrupt):
    """A long call stopped by Ctrl-C (in Jupyter: interrupting the kernel). A KeyboardInterrupt, so that code which
    catches those catches it too; what the call had found is lost unless it kept a journal."""
