"""Learning environments (optional extra ``mauseloch[rl]``).

``mausgeflippt_v0``: Mausgeflippt as a PettingZoo Parallel environment.
"""
