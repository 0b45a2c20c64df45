"""Learning environments (the optional extra ``mauseloch[rl]``: PettingZoo and Gymnasium).

- ``mauseloch.envs.maumau_v0``: Mau-Mau as a PettingZoo AEC environment, every seat an agent.
- ``mauseloch.envs.maumau_single``: Mau-Mau as a Gymnasium environment; one seat learns, the
  others are bots from ``mauseloch.bots`` (registered as ``mauseloch/MauMau-v0``).
- ``mauseloch.envs.maumau_obs``: the observation vector both share, and the reward mapping.
- ``mauseloch.envs.maumau_state``: one game on the compiled kernel, what ``maumau_v0`` steps.
- ``mauseloch.envs.mausgeflippt_v0``: Mausgeflippt as a PettingZoo Parallel environment, one
  step per mouse, decided by the real-time referee.

``docs/envs.md`` and ``docs/envs-mausgeflippt.md`` document the observations field by field.
"""
