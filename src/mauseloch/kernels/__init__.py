"""Compiled fast paths (numba ``@njit(cache=True)``), each checked against its plain engine."""
