"""Subcommands of the `gameproof` CLI; each module offers `register(subparsers)`."""
