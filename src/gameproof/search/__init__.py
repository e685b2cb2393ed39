"""Game-tree search: perft, proof-number search, books."""
