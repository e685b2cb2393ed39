"""Three Men's Morris: its rules and declaration are :mod:`gameproof.games.morris3.rules`."""
