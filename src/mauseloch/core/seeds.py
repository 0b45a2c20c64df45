"""The seed streams: every independent generator the project draws from, in one table.

All randomness comes from a seed (architecture.md: deterministic). A part that needs its own
generator takes ``derive_seed(seed, STREAM)`` (:func:`mauseloch.core.engine.derive_seed`) with one of
the numbers below, so no two parts ever share a sequence by accident and a new part cannot take a
number already in use without it showing here. The numbers are fixed forever: recorded games,
the spec's vectors, simulator reports and trained models replay only while each stays what it is.

Where a stream belongs to a seat, seat ``s`` draws from ``STREAM + s`` (seats stay below 100, so
a seat's range never reaches the next stream of the same seed). Indexed streams count up from 0
and need no name here: game
``i`` of a simulation or tournament has the seed ``derive_seed(run_seed, i)``, deal ``d`` of a match
``derive_seed(match_seed, d)``; a search bot's decision seed is ``derive_seed(bot_seed, moves_played)``
and its ``k``-th sampled deal ``derive_seed(decision_seed, k)``.
"""

from __future__ import annotations

# Of a game's seed (the engine and the kernels that play its games exactly)
STREAM_DEAL = 1  # the deal's shuffle (api.md: separate from the reshuffles)
STREAM_RESHUFFLE = 2  # every reshuffle of the played cards into a new draw pile, one generator
STREAM_DETERMINIZE = 3  # determinize(seat, seed): the hidden cards dealt again

# Of a simulator's or tournament's game seed (mauseloch.study)
STREAM_ENGINE = 100  # a reaction game's engine seed (its ties come from STREAM_TIES, never the engine)
STREAM_TIES = 101  # the referee's tie stream: exact ties in a reaction window
STREAM_BOTS = 200  # + seat: the bot of each seat
STREAM_BOOTSTRAP = 300  # of the tournament's seed: the bootstrap's resampling generator
STREAM_SPEED = 500  # + game: scripts/baselines.py's timed games (STREAM_SPEED - 1 warms up)
STREAM_SETTING = 600  # scripts/offline_games.py: a game's player options, bot kinds and refused moves

# Of a learning environment's seeds (mauseloch.envs)
STREAM_LEARNER_SEAT = 77  # the learner's seat when the environment draws it
STREAM_RIVALS = 100  # + seat: the rivals' bots around the learner
STREAM_RESETS = 300  # + k: the k-th game after a reset without a seed (the reaction game's env)
STREAM_NEXT_SEEDS = 0x5EED  # the generator of the next games' seeds after a seeded reset (Mau-Mau's env)

# Of a table's seed (mauseloch.server)
STREAM_SEAT_BOTS = 1000  # + seat: the bot a table starts in a seat
STREAM_STANDIN = 2000  # + seat: the stand-in bot that plays for a person who left
STREAM_STANDIN_FALLBACK = 3000  # + seat: the random bot the stand-in falls back on

# Of a deal search's seed (mauseloch.games.ausdiemaus.analyze)
STREAM_DEAL_SEARCH = 7  # the random walk over decks that looks for the longest and endless games

# Of a distillation game's seed (mauseloch.games.maumau.learn.distill: the labelled games)
STREAM_TEACHER = 1  # the teacher (the search that labels the moves)
STREAM_TEACHER_RIVALS = 2  # + seat: the heuristic bots around it

# Of a distillation run's seed (mauseloch.games.maumau.learn.distill)
STREAM_STUDENT_GAMES = 50  # + players: the seeds of the games the student plays (DAgger)

# Of a bot's seed (mauseloch.bots) and of a search's decision seed
STREAM_PRIOR = 7  # the search bot's heuristic prior
STREAM_PLAYOUTS = 1_000_000  # + deal: the play-out generator of each sampled deal
STREAM_HISTORY = 3_000_000  # the sampler that draws deals consistent with the moves seen
