"""Mausgeflippt's learning environment (public path: ``mauseloch.envs.mausgeflippt_v0``): a
PettingZoo Parallel environment (``parallel``)."""
