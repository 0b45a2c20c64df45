"""The learned model of the rivals' hands (``learn.hands``): its labels are the true places of the
cards a seat cannot see, its deals keep every hand its size, and ``search-learned`` draws from
it deterministically."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.cli import app
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau import kernel as K
from mauseloch.games.maumau.bots.learned import shipped_hands
from mauseloch.games.maumau.bots.search import level_options
from mauseloch.games.maumau.bots.search_learned import LEVELS, SearchLearnedBot
from mauseloch.games.maumau.learn.hands import CARDS, PLACES, HandModel, draw_deals, gather, room_loss
from mauseloch.games.maumau.learn.policy import NUM_FEATURES


def test_the_labels_are_the_true_places_of_the_hidden_cards() -> None:
    x, y = gather(3, 20, 5, 6)
    assert x.shape == (120, NUM_FEATURES) and y.shape == (120, CARDS)
    batch = K.MauMauBatch(20, players=3, seed=5)  # the first step's positions, dealt again
    for k in range(20):
        seat = int(batch.to_move[k])
        for j in (1, 2):
            hand = int(batch.ints[k, K.I_HANDS + (seat + j) % 3])
            assert {c for c in range(CARDS) if y[k, c] == j} == {c for c in range(CARDS) if hand >> c & 1}
        pile = int(batch.ints[k, K.I_PILE])
        assert {c for c in range(CARDS) if y[k, c] == 0} == set(batch.cards[k, :pile].tolist())
        own = int(batch.ints[k, K.I_HANDS + seat])
        assert all(y[k, c] == -1 for c in range(CARDS) if own >> c & 1)  # the seat sees its own hand
    assert 0 < room_loss(y) < np.log(PLACES)


def test_deals_keep_every_hand_its_size_and_follow_a_sure_model() -> None:
    pool = np.array([3, 5, 8, 13, 21, 30], dtype=np.int64)
    room = np.array([2, 3, 1, 0, 0], dtype=np.int64)  # pile 2, the rival after the seat 3, the next 1
    probs = np.full((CARDS, PLACES), 1 / 3)
    probs[30] = [0, 0, 1, 0, 0]  # card 30 is surely two seats on
    uniforms = np.random.default_rng(1).random((200, len(pool), 2))
    deals = draw_deals(probs, pool, room, 3, 1, uniforms)
    assert deals.shape == (200, 6)
    for deal in deals:
        assert sorted(deal.tolist()) == pool.tolist()  # every hidden card once
        # seat order from seat 1 at three players: seat 0 (two seats on: 1 card), seat 2 (next: 3), then the pile
        assert deal[0] == 30
    assert np.array_equal(deals, draw_deals(probs, pool, room, 3, 1, uniforms))  # the same randomness, the same deals
    assert len({tuple(d) for d in deals}) > 20


def test_the_shipped_model_gives_places_that_exist() -> None:
    model = shipped_hands()
    x, _ = gather(2, 4, 9, 2)
    p = model.probs(x, 2)
    assert p.shape == (8, CARDS, PLACES) and np.allclose(p.sum(axis=2), 1)
    assert (p[:, :, 2:] == 0).all()  # heads-up: the pile or the one rival
    with pytest.raises(ValueError, match="hand model takes"):
        HandModel([(np.zeros((10, 4), np.float32), np.zeros(4, np.float32))])


def test_search_learned_draws_from_the_learned_model_deterministically() -> None:
    options = level_options("search") | {"halving": False} | LEVELS["search-learned"] | {"iterations": 60}

    def game(seed: int) -> list[str]:
        g = mauseloch.new_game(MauMau.name, players=3, seed=seed)
        bots = [
            SearchLearnedBot(7, belief="learned", **options),
            make_bot(MauMau.name, "heuristic", seed=1),
            make_bot(MauMau.name, "heuristic", seed=2),
        ]
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            legal = g.legal_moves()
            move = bots[seat].choose(g.typed_view(seat), legal)
            assert move in legal
            g.play(move)
        return [str(m) for m in g.record()["moves"]]

    assert game(3) == game(3)
    with pytest.raises(ValueError, match="belief must be"):
        SearchLearnedBot(1, belief="psychic", **options)


@pytest.mark.slow
def test_train_with_a_hands_config_fits_the_model(tmp_path: Path) -> None:
    pytest.importorskip("jax", reason="fitting needs the train extra (JAX, Flax, Optax)")
    config = tmp_path / "hands.toml"
    config.write_text('method = "hands"\ngames = 40\nsteps = 8\nplayers = [2, 4]\nhidden = [16]\nepochs = 2\n')
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (run / "hands.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in rows] == [1, 2] and set(rows[0]["held_loss"]) == {"2", "4"}
    model = HandModel.load(run / "hands.npz")
    assert [w.shape for w, _ in model.layers] == [(NUM_FEATURES, 16), (16, CARDS * PLACES)]
    again = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert again.exit_code == 2 and "--resume" in again.output
