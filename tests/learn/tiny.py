"""The tiny Deep Monte Carlo config the training tests run (a few CPU seconds)."""

TINY_DMC = """
seed = 3
hidden = [16]
batch_size = 64
buffer = 5000
games = {"2" = 16, "4" = 8}
eval_deals_2 = 20
eval_deals_4 = 10
eval_minutes = 0.02
snapshot_minutes = 0.01
minutes = 0.05
"""
