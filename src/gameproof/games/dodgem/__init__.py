"""Dodgem (Colin Vout): its rules and declaration are :mod:`gameproof.games.dodgem.rules`."""
