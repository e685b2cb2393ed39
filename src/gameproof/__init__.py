"""gameproof: write game and puzzle rules once in Python; run them concretely, symbolically and under search."""

__version__ = "0.1.0"
