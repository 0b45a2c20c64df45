"""Studying the games: the simulator, tournaments, analysis and the backends that spread the work."""
