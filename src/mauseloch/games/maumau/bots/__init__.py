"""The bots that play Mau-Mau only: the heuristic (its habits in plain Python), the search, the
learned bot and the search over the learned policy, with the belief they share."""
