"""Games: rules written once, run concretely (numba), symbolically (SAT) and under search."""
