"""Learning environments (the optional extra ``mauseloch[rl]``: PettingZoo and Gymnasium).

- ``mauseloch.envs.maumau_v0``: Mau-Mau as a PettingZoo AEC environment, every seat an agent.
- ``mauseloch.envs.maumau_single``: Mau-Mau as a Gymnasium environment; one seat learns, the
  others are bots from ``mauseloch.bots`` (registered as ``mauseloch/MauMau-v0``).
- ``mauseloch.envs.maumau_obs``: the observation vector both share, and the reward mapping.

``docs/envs.md`` documents the observation field by field.
"""
