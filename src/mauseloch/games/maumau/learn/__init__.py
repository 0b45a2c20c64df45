"""Learned Mau-Mau players: the numpy policy (:mod:`.policy`) that plays, and the trainer
(:mod:`.dmc`, Deep Monte Carlo on the batched kernel) that needs the ``train`` extra
(JAX, Flax, Optax). Playing imports nothing from the trainer."""
