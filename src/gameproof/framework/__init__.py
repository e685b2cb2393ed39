"""The framework every game is built on: what a game declares, its rules bound three ways (plain Python,
numba, symbolic), the kernels derived from them, positions, the registry of games and reachability by SAT.

The games themselves live in :mod:`gameproof.games`, one rules module each."""
