"""Mau-Mau rules MM-1 … MM-16 of docs/rules/mau-mau.md, each from a hand-built deal.

Dealing (MM-2): five rounds, one card at a time to seats 0..n-1, then the starter, then the
draw pile top first. ``deal`` lays a deck out that way from the hands we want.
"""

from __future__ import annotations

import pytest

import mauseloch

RANKS = "789TJQKA"
SUITS = "CSHD"
ALL = [r + s for s in SUITS for r in RANKS]
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 9, "8": 8, "7": 7}  # spec, not the engine's table


def deal(hands: list[str], starter: str, draw: str = "") -> list[str]:
    """The deck (top first) that deals ``hands`` (5 cards each), turns ``starter`` up and puts
    ``draw`` (top first) on the draw pile, followed by every other card."""
    hs = [h.split() for h in hands]
    assert all(len(h) == 5 for h in hs), hs
    n = len(hs)
    deck = [hs[i % n][i // n] for i in range(5 * n)] + [starter, *draw.split()]
    assert len(set(deck)) == len(deck), "a card appears twice in the test's deal"
    return deck + [c for c in ALL if c not in deck]


def mm(hands: list[str], starter: str, draw: str = "", seed: int = 0, **options: object) -> mauseloch.Game:
    deck = deal(hands, starter, draw)
    return mauseloch.new_game("mau-mau", players=len(hands), seed=seed, options=options, deck=deck)


def hand(g: mauseloch.Game, seat: int) -> set[str]:
    return set(g.view(seat)["hand"])


def legal(g: mauseloch.Game) -> set[str]:
    moves = g.legal_moves()
    assert len(moves) == len(set(moves))
    return set(moves)


def wishes(jack: str) -> set[str]:
    return {f"{jack}:{s}" for s in SUITS}


def play(g: mauseloch.Game, *moves: str) -> None:
    for m in moves:
        assert m in g.legal_moves(), f"{m} not legal for seat {g.to_move}: {g.legal_moves()}"
        g.play(m)


def events(g: mauseloch.Game, kind: str) -> list[dict]:
    return [e for e in g.events if e["type"] == kind]


def drawn(g: mauseloch.Game) -> list[str]:
    """The cards of the last draw (from its private event)."""
    return events(g, "draw")[-1]["cards"]


def points(cards: set[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


# --------------------------------------------------------------------------- set-up


def test_mm01_player_range_and_seat_zero_first() -> None:
    for n in range(2, 6):
        g = mauseloch.new_game("mau-mau", players=n, seed=n)
        assert g.to_move == 0
        assert [len(hand(g, s)) for s in range(n)] == [5] * n
    for n in (0, 1, 6, 7):
        with pytest.raises(ValueError):
            mauseloch.new_game("mau-mau", players=n, seed=1)


def test_mm01_play_goes_clockwise_and_wraps() -> None:
    g = mm(["QC 8H 9H TH AH", "KC 8S 9S QS KS", "AC 8D 9D QD KD"], "TC")
    seen = [g.to_move]
    for card in ("QC", "KC", "AC"):
        play(g, card)
        seen.append(g.to_move)
    assert seen == [0, 1, 2, 0]


def test_mm02_dealing_order_starter_and_draw_pile() -> None:
    deck = deal(FIVE_HANDS, "JH", FIVE_DRAW)
    g = mauseloch.new_game("mau-mau", players=5, seed=0, deck=deck)
    for s in range(5):
        assert hand(g, s) == set(deck[s:25:5])
        assert hand(g, s) == set(FIVE_HANDS[s].split())
    assert g.view(None)["top"] == "JH" == deck[25]
    # the draw pile's first card is drawn first
    for s, card in enumerate(deck[26:29]):
        assert g.to_move == s
        play(g, "draw")
        assert drawn(g) == [card]
        assert card in hand(g, s)


def test_mm02_seeded_deal_matches_the_recorded_deck() -> None:
    g = mauseloch.new_game("mau-mau", players=3, seed=12345)
    deck = g.record()["deck"]
    assert sorted(deck) == sorted(ALL)
    for s in range(3):
        assert hand(g, s) == set(deck[s:15:3])
    assert g.view(None)["top"] == deck[15]


# --------------------------------------------------------------------------- MM-3 starting card


def test_mm03_starting_seven_gives_no_penalty() -> None:
    g = mm(["8H 9H TH QH KH", "8D 9D TD QD KD"], "7C", draw="AS")
    assert legal(g) == {"draw"}
    assert g.view(None)["penalty"] == 0


def test_mm03_starting_eight_skips_nobody() -> None:
    g = mm(["QC 8H 9H TH AH", "KC 8S 9S QS KS", "AC 8D 9D QD KD"], "8C")
    assert g.to_move == 0
    play(g, "QC")
    assert g.to_move == 1


def test_mm03_starting_nine_does_not_reverse() -> None:
    g = mm(["QC 8H 9H TH AH", "KC 8S 7S QS KS", "AC 8D 7D QD KD"], "9C")
    play(g, "QC")
    assert g.to_move == 1


def test_mm03_starting_ace_does_not_skip_even_with_ace_skips() -> None:
    g = mm(["QC 8H 9H TH KH", "KC 8S 9S QS KS", "7C 8D 9D QD KD"], "AC", ace_skips=True)
    assert g.to_move == 0
    play(g, "QC")
    assert g.to_move == 1


def test_mm03_starting_jack_has_no_wish_and_is_matched_like_any_card() -> None:
    g = mm(["QC 8H 9H TH JD", "KC 8S 9S QS KS"], "JC")
    assert g.view(None)["wish"] is None
    assert legal(g) == {"QC"} | wishes("JD")  # its suit, or another jack
    g2 = mm(["QH 8H 9H TH KH", "KC 8S 9S QS KS"], "JC", draw="AD")
    assert legal(g2) == {"draw"}


# --------------------------------------------------------------------------- a turn


def test_mm04_a_card_fits_by_suit_or_rank() -> None:
    g = mm(["KH 9C JD 8C QS", "7D 8D TD QD KD"], "9H")
    assert legal(g) == {"KH", "9C"} | wishes("JD")


def test_mm04_an_open_wish_admits_only_the_wished_suit_or_a_jack() -> None:
    g = mm(["JC 8H TH AH KH", "QD QC 7C JS 8S"], "9C")
    play(g, "JC:D")
    assert g.view(None)["wish"] == "D"
    # clubs (the jack's own suit) no longer fit; the diamond and the other jack do
    assert legal(g) == {"QD"} | wishes("JS")


def test_mm05_a_jack_fits_on_every_card_and_needs_a_wish() -> None:
    g = mm(["JS 8C 9C TC QC", "7D 8D TD QD KD"], "7H")
    assert legal(g) == wishes("JS")  # the jack's own suit may be wished too
    for bare in ("JS", "js", "JS:", "JS:X"):
        with pytest.raises(mauseloch.IllegalMove):
            g.play(bare)
    g.play(" js:h ")
    assert g.view(None)["wish"] == "H"
    assert g.view(None)["top"] == "JS"
    assert g.record()["moves"] == [[0, "JS:H"]]


def test_mm06_must_play_a_fitting_card() -> None:
    g = mm(["QH 8C 9C TC 7D", "8D 9D TD QD KD"], "KH")
    assert legal(g) == {"QH"}
    with pytest.raises(mauseloch.IllegalMove):
        g.play("draw")
    for not_fitting in ("8C", "7D"):
        with pytest.raises(mauseloch.IllegalMove):
            g.play(not_fitting)


def test_mm06_draw_only_when_nothing_fits() -> None:
    g = mm(["8C 9C TC QC AC", "8D 9D TD QD KD"], "KH", draw="7S")
    assert legal(g) == {"draw"}
    with pytest.raises(mauseloch.IllegalMove):
        g.play("8C")
    with pytest.raises(mauseloch.IllegalMove):
        g.play("pass")


@pytest.mark.parametrize("choice", ["QH", "pass"])
def test_mm07_drawn_card_that_fits_play_it_or_pass(choice: str) -> None:
    g = mm(["8C 9C TC QC AC", "8D 9D TD QD KD"], "KH", draw="QH")
    play(g, "draw")
    assert g.to_move == 0
    assert legal(g) == {"QH", "pass"}  # no other card, no second draw
    for other in ("8C", "draw", "take"):
        with pytest.raises(mauseloch.IllegalMove):
            g.play(other)
    play(g, choice)
    assert g.to_move == 1
    if choice == "pass":
        assert "QH" in hand(g, 0) and len(hand(g, 0)) == 6
        assert g.view(None)["top"] == "KH"
    else:
        assert "QH" not in hand(g, 0) and len(hand(g, 0)) == 5
        assert g.view(None)["top"] == "QH"


def test_mm07_drawn_jack_may_be_played_with_a_wish() -> None:
    g = mm(["8C 9C TC QC AC", "8D 9D TD QD KD"], "KH", draw="JD")
    play(g, "draw")
    assert legal(g) == wishes("JD") | {"pass"}


def test_mm07_drawn_card_that_does_not_fit_passes_the_turn_at_once() -> None:
    g = mm(["8C 9C TC QC AC", "8D 9D TD QD KD"], "KH", draw="7S")
    play(g, "draw")
    assert g.to_move == 1
    assert "7S" in hand(g, 0)
    assert g.record()["moves"] == [[0, "draw"]]
    assert legal(g) == {"KD"}


# --------------------------------------------------------------------------- MM-8 reshuffle

# Five players: 25 cards in hands, starter JH, only six cards to draw. Seats 0-2 hold nothing
# that fits JH and draw a non-fitting card each; then four sevens are stacked and seat 2 takes 8.
FIVE_HANDS = ["7S 8C 9C TC QC", "7C KC AC 8S 9S", "TS QS KS AS 8D", "7H 8H 9H TH QH", "7D KH AH JC JS"]
FIVE_DRAW = "9D TD QD JD KD AD"


def five_player_take(seed: int = 0, **options: object) -> mauseloch.Game:
    g = mm(FIVE_HANDS, "JH", FIVE_DRAW, seed=seed, **options)
    for seat in range(3):
        assert g.to_move == seat and legal(g) == {"draw"}
        play(g, "draw")
    play(g, "7H")  # seat 3: penalty 2
    assert legal(g) == {"7D", "take"}
    play(g, "7D", "7S", "7C")  # seats 4, 0, 1: penalty 8 on seat 2
    assert g.to_move == 2 and legal(g) == {"take"}
    assert g.view(None)["penalty"] == 8
    play(g, "take")
    return g


def test_mm08_reshuffle_draws_fewer_when_the_piles_run_out() -> None:
    g = five_player_take()
    # 3 cards left on the pile, then the discard pile except its top (7C) is shuffled: 4 more
    got = drawn(g)
    assert len(got) == 7
    assert got[:3] == ["JD", "KD", "AD"]
    assert sorted(got[3:]) == sorted(["JH", "7H", "7D", "7S"])
    assert len(events(g, "reshuffle")) == 1
    assert hand(g, 2) == {"TS", "QS", "KS", "AS", "8D", "QD", "JD", "KD", "AD", "JH", "7H", "7D", "7S"}
    v = g.view(None)
    assert v["top"] == "7C" and v["penalty"] == 0
    assert v["draw_pile"] == 0 and v["discard_pile"] == 1
    assert sum(len(hand(g, s)) for s in range(5)) == 31


def test_mm08_reshuffle_is_seeded_and_deterministic() -> None:
    orders = {tuple(drawn(five_player_take(seed=s))) for s in range(12)}
    assert len(orders) > 1, "reshuffle order does not depend on the seed"
    for s in (0, 7):
        a, b = five_player_take(seed=s), five_player_take(seed=s)
        assert drawn(a) == drawn(b) and a.events == b.events
        assert mauseloch.replay(a.record()).events == a.events


def test_mm14_pass_when_nothing_fits_and_nothing_can_be_drawn() -> None:
    g = five_player_take()
    # seat 2 missed its turn; draw pile empty and the discard pile is just its top card
    assert g.to_move == 3
    assert hand(g, 3) == {"8H", "9H", "TH", "QH"}  # nothing fits 7C
    assert legal(g) == {"pass"}
    with pytest.raises(mauseloch.IllegalMove):
        g.play("draw")
    play(g, "pass")
    assert g.to_move == 4 and not g.is_over
    assert legal(g) == wishes("JC") | wishes("JS")


def test_mm14_take_is_legal_when_fewer_cards_can_be_drawn() -> None:
    g = five_player_take(seven_draw_then_play=True)
    # with the option seat 2 moves again: it plays a seven back; only one card is left to draw
    assert g.to_move == 2
    assert legal(g) == {"7H", "7D", "7S"} | wishes("JD") | wishes("JH")
    play(g, "7H")
    assert g.to_move == 3 and legal(g) == {"take"}
    play(g, "take")
    assert drawn(g) == ["7C"]
    assert hand(g, 3) == {"8H", "9H", "TH", "QH", "7C"}
    assert g.to_move == 3  # seven_draw_then_play: seat 3 moves on
    assert g.view(None)["draw_pile"] == 0 and g.view(None)["discard_pile"] == 1


# --------------------------------------------------------------------------- MM-9 sevens

SEVENS_2P = ["7H 8C 9C TC QC", "7S 8D 9D TD QD"]


def test_mm09_seven_penalty_take_and_miss_the_turn() -> None:
    g = mm(SEVENS_2P, "KH", draw="AS KS")
    play(g, "7H")
    assert g.to_move == 1 and g.view(None)["penalty"] == 2
    assert legal(g) == {"7S", "take"}  # countering is allowed, never forced
    with pytest.raises(mauseloch.IllegalMove):
        g.play("QD")
    play(g, "take")
    assert hand(g, 1) == {"7S", "8D", "9D", "TD", "QD", "AS", "KS"}
    assert g.view(None)["penalty"] == 0
    assert g.to_move == 0  # seat 1 missed its turn
    assert legal(g) == {"draw"}  # no penalty left, the seven is an ordinary top card


def test_mm09_sevens_stack_and_the_penalty_grows() -> None:
    g = mm(SEVENS_2P, "KH", draw="AS KS AD KD")
    play(g, "7H", "7S")
    assert g.to_move == 0 and g.view(None)["penalty"] == 4
    assert legal(g) == {"take"}
    play(g, "take")
    assert hand(g, 0) == {"8C", "9C", "TC", "QC", "AS", "KS", "AD", "KD"}
    assert g.to_move == 1


def test_mm09_any_seven_counters_regardless_of_suit_and_three_players() -> None:
    g = mm(["JC 8H TH AH KH", "7H 8S 9S QS KS", "7C 8D 9D QD KD"], "TS", draw="AS AD")
    play(g, "JC:H", "7H")
    assert g.to_move == 2 and legal(g) == {"7C", "take"}
    play(g, "7C")
    assert g.to_move == 0 and legal(g) == {"take"}
    play(g, "take")
    assert g.to_move == 1  # seat 0 misses its turn
    assert len(hand(g, 0)) == 8


def test_mm09_seven_draw_then_play_moves_on_at_once() -> None:
    g = mm(SEVENS_2P, "KH", draw="AH KD", seven_draw_then_play=True)
    play(g, "7H", "take")
    assert g.to_move == 1
    assert g.view(None)["penalty"] == 0
    assert legal(g) == {"AH", "7S"}  # the seven on top is matched like any card
    play(g, "7S")  # a new seven is a new penalty
    assert g.to_move == 0 and legal(g) == {"take"}


def test_mm09_take_misses_the_turn_without_the_option() -> None:
    g = mm(SEVENS_2P, "KH", draw="AH KD")
    play(g, "7H", "take")
    assert g.to_move == 0


def test_mm09_penalty_goes_to_the_next_player_in_the_current_direction() -> None:
    g = mm(["9C 8H KH TH AH", "KC 8S QS AS KS", "7C 8D 9D QD KD"], "TC", draw="AD JD")
    play(g, "9C")  # reversed: seat 2 is next
    play(g, "7C")
    assert g.to_move == 1 and legal(g) == {"take"}
    play(g, "take")
    assert hand(g, 1) == {"KC", "8S", "QS", "AS", "KS", "AD", "JD"}
    assert g.to_move == 0


def test_mm09_a_drawn_seven_played_gives_the_penalty() -> None:
    g = mm(["8C 9C TC QC AC", "8D 9D TD QD KD"], "KH", draw="7H")
    play(g, "draw")
    assert legal(g) == {"7H", "pass"}
    play(g, "7H")
    assert g.to_move == 1 and legal(g) == {"take"}


# --------------------------------------------------------------------------- MM-10 / MM-10a / MM-11


def test_mm10_eight_skips_the_next_player() -> None:
    g = mm(["8C 8H 9H TH AH", "KC 8S 9S QS KS", "AC 8D 9D QD KD"], "TC")
    play(g, "8C")
    assert g.to_move == 2
    assert [e["seat"] for e in events(g, "skip")] == [1]


def test_mm10_eight_skip_wraps_around() -> None:
    g = mm(["QC 8H 9H TH AH", "AC 7S 9S QS KS", "8C 7D 9D QD KD"], "TC")
    play(g, "QC", "AC", "8C")
    assert g.to_move == 1


def test_mm10_eight_with_two_players_moves_again() -> None:
    g = mm(["8C 8H 9H TH AH", "KC 7S 9S QS KS"], "TC")
    play(g, "8C")
    assert g.to_move == 0


def test_mm10a_nine_reverses_the_direction() -> None:
    g = mm(["9C 8H 7H TH AH", "KC 8S 7S QS KS", "QC 8D 7D QD KD"], "TC")
    play(g, "9C")
    assert g.to_move == 2
    play(g, "QC")
    assert g.to_move == 1
    play(g, "KC")
    assert g.to_move == 0


def test_mm10a_eight_after_a_reversal_skips_the_other_way() -> None:
    g = mm(["9C 8H 7H TH AH", "KC 8S 7S QS KS", "8C 7C 9D QD KD", "AC 7D 9S JH JD"], "TC")
    play(g, "9C")
    assert g.to_move == 3
    play(g, "AC")
    assert g.to_move == 2
    play(g, "8C")  # skips seat 1
    assert g.to_move == 0


def test_mm10a_nine_with_two_players_moves_again() -> None:
    g = mm(["9C 8H 7H TH AH", "KC 8S 7S QS KS"], "TC")
    play(g, "9C")
    assert g.to_move == 0


@pytest.mark.parametrize(("players", "ace_skips", "after"), [(3, False, 1), (3, True, 2), (2, True, 0), (2, False, 1)])
def test_mm11_ace_is_ordinary_unless_ace_skips(players: int, ace_skips: bool, after: int) -> None:
    hands = ["AC 8H 7H TH KH", "KC 8S 7S QS KS", "QC 8D 7D QD KD"][:players]
    g = mm(hands, "TC", ace_skips=ace_skips)
    play(g, "AC")
    assert g.to_move == after


# --------------------------------------------------------------------------- MM-12 jacks


def test_mm12_wish_lasts_across_draws_and_passes_until_a_card_is_played() -> None:
    g = mm(["JC 8H 9H KH AH", "7S 8S 9S QS KS", "TH QH 7H 9C QC"], "TS", draw="8C QD AC KD")
    play(g, "JC:D")
    play(g, "draw")  # seat 1: 8C does not fit the wish
    assert g.to_move == 2
    play(g, "draw")  # seat 2: QD fits; keep it
    assert legal(g) == {"QD", "pass"}
    play(g, "pass")
    assert g.view(None)["wish"] == "D"
    assert g.to_move == 0 and legal(g) == {"draw"}  # hearts do not fit the wish
    play(g, "draw")  # AC: clubs (the jack's suit) do not fit
    assert g.to_move == 1 and legal(g) == {"draw"}
    play(g, "draw")
    assert legal(g) == {"KD", "pass"}
    play(g, "KD")
    assert g.view(None)["wish"] is None
    assert legal(g) == {"QD"}


def test_mm12_jack_on_jack_allowed_by_default() -> None:
    g = mm(["JC 8H 9H KH AH", "JH QH 8S 9S KS"], "TS")
    play(g, "JC:H")
    assert legal(g) == {"QH"} | wishes("JH")


def test_mm12_no_jack_on_jack_on_a_played_jack() -> None:
    g = mm(["JC 8H 9H KH AH", "JH QH 8S 9S KS"], "TS", no_jack_on_jack=True)
    play(g, "JC:H")
    assert legal(g) == {"QH"}  # not even the jack of the wished suit
    with pytest.raises(mauseloch.IllegalMove):
        g.play("JH:H")


def test_mm12_no_jack_on_jack_the_wish_stays_valid() -> None:
    g = mm(["JC 8H 9H KH AH", "JH JD 8S 9S KS"], "TS", draw="7C", no_jack_on_jack=True)
    play(g, "JC:D")
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert g.view(None)["wish"] == "D" and g.to_move == 0


def test_mm12_no_jack_on_jack_on_a_starting_jack() -> None:
    g = mm(["JS 8D 9C TC QC", "7H 8H TH QH KH"], "JD", no_jack_on_jack=True)
    assert legal(g) == {"8D"}
    g2 = mm(["JS 8C 9C TC QC", "7H 8H TH QH KH"], "JD", no_jack_on_jack=True)
    assert legal(g2) == {"draw"}
    g3 = mm(["JS 8C 9C TC QC", "7H 8H TH QH KH"], "JD")
    assert legal(g3) == wishes("JS")


# --------------------------------------------------------------------------- MM-13 Mau


def test_mm13_mau_every_time_a_play_leaves_one_card() -> None:
    g = mm(["8H 8C 8S 8D KC", "KD 7S 9S TS QS"], "TH", draw="AS")
    play(g, "8H", "8C", "8S")
    assert events(g, "mau") == []
    play(g, "8D")  # two players: the eight keeps the turn
    assert events(g, "mau") == [{"type": "mau", "seat": 0}]
    play(g, "draw")  # KC does not fit 8D; AS does not either
    assert g.to_move == 1
    play(g, "KD")
    play(g, "KC")
    assert events(g, "mau") == [{"type": "mau", "seat": 0}, {"type": "mau", "seat": 0}]
    assert hand(g, 0) == {"AS"}


# --------------------------------------------------------------------------- MM-15 end


def test_mm15_last_card_wins_and_its_effect_does_not_count() -> None:
    g = mm(["8H 8C 8S 8D 7D", "KD 7S 9S TS QS"], "TH")
    play(g, "8H", "8C", "8S", "8D", "7D")
    assert g.is_over and g.to_move is None
    assert g.legal_moves() == [] and g.legal_moves(1) == []
    assert events(g, "mau_mau") == [{"type": "mau_mau", "seat": 0}]
    res = g.result()
    assert res["reason"] == "out"
    assert res["ranks"] == [1, 2]
    assert res["cards"] == [0, 5]
    assert res["points"] == [0, points({"KD", "7S", "9S", "TS", "QS"})]
    assert g.view(None)["penalty"] == 0  # the last seven gave no penalty


def test_mm15_a_countering_seven_as_last_card_wins_without_passing_the_penalty() -> None:
    g = mm(["QH 7S 9C TC AC", "8H 8C 8S QS 7D"], "KH")
    play(g, "QH", "8H", "8C", "8S", "QS")
    assert events(g, "mau") == [{"type": "mau", "seat": 1}]
    play(g, "7S")
    assert g.to_move == 1 and legal(g) == {"7D", "take"}
    play(g, "7D")
    assert g.is_over
    res = g.result()
    assert res["reason"] == "out" and res["ranks"] == [2, 1]
    assert res["cards"] == [3, 0] and res["points"] == [9 + 10 + 11, 0]  # nobody took the penalty


def test_mm15_no_win_with_jack_draws_one_and_play_goes_on() -> None:
    g = mm(["8H 8C 8S 8D JC", "KD 7S 9S TS QS"], "TH", draw="AH", no_win_with_jack=True)
    play(g, "8H", "8C", "8S", "8D")
    assert legal(g) == wishes("JC")  # must-play holds for a last jack too
    play(g, "JC:S")
    assert not g.is_over
    assert hand(g, 0) == {"AH"}
    assert g.to_move == 1
    assert g.view(None)["wish"] == "S"
    assert legal(g) == {"7S", "9S", "TS", "QS"}
    assert events(g, "mau_mau") == []


def test_mm15_last_jack_wins_without_the_option() -> None:
    g = mm(["8H 8C 8S 8D JC", "KD 7S 9S TS QS"], "TH", draw="AH")
    play(g, "8H", "8C", "8S", "8D", "JC:S")
    assert g.is_over and g.result()["reason"] == "out" and g.result()["ranks"] == [1, 2]
    assert "AH" not in hand(g, 0)
    # (The option's "nothing can be drawn, the jack wins after all" cannot arise with 32 cards:
    # after the jack is played the discard pile holds at least one card under it to reshuffle.)


def test_mm14a_a_win_on_the_last_allowed_move_is_a_win() -> None:
    g = mm(["8H 8C 8S 8D 7D", "KD 7S 9S TS QS"], "TH", move_limit=5)
    play(g, "8H", "8C", "8S", "8D", "7D")
    assert g.is_over and g.result()["reason"] == "out"


def test_mm15a_move_limit_ends_the_game_with_the_normal_ranking() -> None:
    g = mm(["8H 8C 8S 8D 7D", "KD 7S 9S TS QS"], "TH", move_limit=4)
    play(g, "8H", "8C", "8S", "8D")
    assert g.is_over and g.to_move is None
    res = g.result()
    assert res["reason"] == "move_limit"
    assert res["cards"] == [1, 5] and res["ranks"] == [1, 2]
    with pytest.raises(mauseloch.IllegalMove):
        g.play("7D")


def test_mm15a_move_limit_counts_draw_pass_and_take() -> None:
    g = mm(SEVENS_2P, "KH", draw="AS KS QH", move_limit=4)
    play(g, "7H", "take", "draw")
    assert not g.is_over and legal(g) == {"QH", "pass"}
    play(g, "pass")
    assert g.is_over and g.result()["reason"] == "move_limit"
    assert len(g.record()["moves"]) == 4


def test_mm15a_move_limit_one() -> None:
    g = mm(["8C 9C TC QC AC", "8D 9D TD QD KD"], "KH", draw="7S", move_limit=1)
    play(g, "draw")
    assert g.is_over and g.result()["reason"] == "move_limit"
    assert g.result()["cards"] == [6, 5] and g.result()["ranks"] == [2, 1]


# --------------------------------------------------------------------------- MM-16 ranking


def test_mm16_ties_share_a_rank_competition_style() -> None:
    hands = ["KH 7D 8D 9D QD", "7C 8C 9C KC QC", "7S 8S 9S KS QS", "AS AC AH TD TH"]
    g = mm(hands, "QH", move_limit=1)
    play(g, "KH")
    res = g.result()
    assert res["reason"] == "move_limit"
    assert res["cards"] == [4, 5, 5, 5]
    want_points = [points(set(hands[0].split()) - {"KH"})] + [points(set(h.split())) for h in hands[1:]]
    assert res["points"] == want_points == [27, 31, 31, 53]
    assert res["ranks"] == [1, 2, 2, 4]


def test_mm16_fewer_cards_first_then_fewer_points() -> None:
    g = mm(["KD AH AD TD TC", "QD 7D 8C 9C QC", "7S 8S 9S QS KS"], "KH", move_limit=2)
    play(g, "KD", "QD")
    res = g.result()
    assert res["cards"] == [4, 4, 5]
    assert res["points"] == [42, 27, 31]
    assert res["ranks"] == [2, 1, 3]


# --------------------------------------------------------------------------- events


def test_events_deal_and_draw_are_private_and_redacted_for_others() -> None:
    g = mm(["8C 9C TC QC AC", "8D 9D TD QD KD", "8S 9S TS QS KS"], "KH", draw="7S")
    deals = events(g, "deal")
    assert [e["private"] for e in deals] == [0, 1, 2]
    assert [set(e["cards"]) for e in deals] == [hand(g, s) for s in range(3)]
    play(g, "draw")
    e = events(g, "draw")[-1]
    assert e["private"] == 0 and e["cards"] == ["7S"] and e["seat"] == 0
    assert mauseloch.event_for(e, 0) == e
    for other in (1, 2, None):
        copy = mauseloch.event_for(e, other)
        assert "cards" not in copy and "private" not in copy
        assert "7S" not in str(copy)
        assert copy["type"] == "draw" and copy["seat"] == 0
    starts = [ev for ev in g.events if "private" not in ev]
    assert {"type": "start", "card": "KH"} in starts
    for ev in starts:
        assert all(mauseloch.event_for(ev, s) == ev for s in (0, 1, 2, None))


def test_events_take_is_private_only_in_its_cards() -> None:
    g = mm(SEVENS_2P, "KH", draw="AS KS")
    play(g, "7H", "take")
    d = events(g, "draw")[-1]
    assert d["private"] == 1 and d["cards"] == ["AS", "KS"]
    assert "AS" not in str(mauseloch.event_for(d, 0))
    public = [ev for ev in g.events if "private" not in ev]
    assert all("AS" not in str(ev) and "KS" not in str(ev) for ev in public)


# --------------------------------------------------------------------------- typing moves, refusals


@pytest.mark.parametrize("typed", ["TH", "th", "10H", "10h", " 10♥ ", "T♥", "t♡"])
def test_a_ten_may_be_typed_as_t_or_10_with_letter_or_symbol(typed: str) -> None:
    """Input accepts 10 and suit symbols, in any case; the output stays the spec's (TH)."""
    g = mm(["TH 8C 9C KC AC", "7S QS 8S 9S KS"], "QH")
    g.play(typed)
    assert g.record()["moves"] == [[0, "TH"]]
    assert events(g, "play")[-1]["card"] == "TH"


@pytest.mark.parametrize(("typed", "canon"), [("js:♥", "JS:H"), ("J♠:h", "JS:H"), ("j♤ : ♦", "JS:D"), ("JS:d", "JS:D")])
def test_a_jack_and_its_wish_may_be_typed_with_symbols(typed: str, canon: str) -> None:
    g = mm(["JS 8C 9C KC AC", "7S QS 8S 9S KS"], "QH")
    g.play(typed)
    assert g.record()["moves"] == [[0, canon]]


def test_deck_entries_accept_the_same_spellings() -> None:
    deck = deal(["TH 8C 9C KC AC", "7S QS 8S 9S KS"], "QH")
    typed = [("10" + c[1].lower()) if c[0] == "T" else c.replace("H", "♥") for c in deck]
    g = mauseloch.new_game("mau-mau", players=2, seed=0, deck=typed)
    assert list(g.deck) == deck and g.record()["deck"] == deck


@pytest.mark.parametrize("typed", ["JS:X", "JS:", "JS", "js:hh", "JS:10"])
def test_a_jack_with_a_missing_or_bad_wish_is_refused_for_the_wish(typed: str) -> None:
    """The jack fits; the refusal names the wish and what may be wished."""
    g = mm(["JS 8C 9C KC AC", "7S QS 8S 9S KS"], "QD")
    with pytest.raises(mauseloch.IllegalMove) as refused:
        g.play(typed)
    text = str(refused.value)
    assert "does not fit" not in text
    assert "wish" in text and all(s in text for s in ("C (♣ clubs)", "S (♠ spades)", "H (♥ hearts)", "D (♦ diamonds)"))
    assert g.record()["moves"] == []


def test_a_wish_on_a_card_that_is_no_jack_is_refused_for_the_wish() -> None:
    g = mm(["TD 8C 9C KC AC", "7S QS 8S 9S KS"], "QD")
    with pytest.raises(mauseloch.IllegalMove, match="only a jack carries a wish: play TD"):
        g.play("TD:H")


def test_a_jack_refused_under_no_jack_on_jack_names_the_option() -> None:
    g = mm(["JC 8H 9H KH AH", "JH QH 8S 9S KS"], "TS", no_jack_on_jack=True)
    play(g, "JC:H")
    with pytest.raises(mauseloch.IllegalMove, match=r"no jack on a jack: the option no_jack_on_jack is on \(MM-12\)"):
        g.play("JH:H")
    g = mm(["JH 9H KH AH 8D", "JD QH 8S 9S KS"], "JS", no_jack_on_jack=True)  # a starting jack too
    with pytest.raises(mauseloch.IllegalMove, match="no jack on a jack: the option no_jack_on_jack is on"):
        g.play("JH:C")


def test_draw_take_and_pass_say_why_they_are_refused() -> None:
    """Each refusal says why (api.md)."""
    g = mm(["TH 8C 9C KC AC", "7S QS 8S 9S KS"], "QH", draw="AD")
    with pytest.raises(mauseloch.IllegalMove, match=r"you hold a card that fits \(TH\), so you must play one"):
        g.play("draw")
    with pytest.raises(mauseloch.IllegalMove, match="you hold a card that fits"):
        g.play("pass")
    with pytest.raises(mauseloch.IllegalMove, match="no penalty is open, so there is nothing to take"):
        g.play("take")
    g = mm(["7H 8C 9C KC AC", "7S QS 8S 9S KS", "JD QD 8D 9D KD"], "QH", draw="AD")
    play(g, "7H")  # seat 1 faces a penalty of 2
    for word in ("draw", "pass"):
        with pytest.raises(mauseloch.IllegalMove, match="a penalty of 2 is open"):
            g.play(word)
    g = mm(["8C 9C KC AC QC", "7S QS 8S 9S KS"], "TH", draw="AD")  # nothing fits
    with pytest.raises(mauseloch.IllegalMove, match="nothing fits, so draw a card first"):
        g.play("pass")
    play(g, "draw")  # AD does not fit TH: the turn passed
    g = mm(["8C 9C KC AC QC", "7S QS 8S 9S KS"], "TH", draw="AH")
    play(g, "draw")  # AH fits: play it or pass
    with pytest.raises(mauseloch.IllegalMove, match="you have drawn already: play AH or pass"):
        g.play("draw")


def test_view_shows_the_discard_pile_bottom_first() -> None:
    """api.md v2: the discard pile's cards are public (everyone saw them laid), bottom first."""
    import random

    g = mauseloch.new_game("mau-mau", players=3, seed=12)
    rng = random.Random(12)
    laid = [g.view(0)["top"]]
    reshuffled = False
    for _ in range(300):
        if g.is_over:
            break
        move = rng.choice(g.legal_moves())
        count = g.event_count
        g.play(move)
        for e in g.events_since(count):
            if e["type"] == "play":
                laid.append(e["card"])
            elif e["type"] == "reshuffle":
                laid = laid[-1:]
                reshuffled = True
        for seat in [None, 0, 1, 2]:
            v = g.view(seat)
            assert v["discard"] == laid
            assert v["discard"][-1] == v["top"] and len(v["discard"]) == v["discard_pile"]
    assert reshuffled
