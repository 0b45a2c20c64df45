"""Mau-Mau's learning environments (public paths: ``mauseloch.envs.*``): the observation
(``obs``), one game on the compiled kernel (``state``), PettingZoo AEC (``aec``), Gymnasium
(``single``, ``vector``), RLCard (``rlcard``) and JAX (``jax``)."""
