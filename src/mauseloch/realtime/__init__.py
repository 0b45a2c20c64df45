"""Real-time play: the one referee of reaction windows and its fairness (lag credit from what the server measures)."""
