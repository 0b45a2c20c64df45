"""The terminal in German and English: German input, match play, resume, deal codes."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import mauseloch
from mauseloch.cli import app
from mauseloch.core.dealcode import code_of
from mauseloch.core.match import load_any
from mauseloch.tui.words import german_card, to_notation

runner = CliRunner()


def keyboard(lines: int = 6000, german: bool = False) -> str:
    """Cycles through card numbers (a suit after each, for a jack's wish), draw, pass, take."""
    if german:
        cycle = ["1", "Herz", "2", "Kr", "3", "Pik", "4", "Ka", "5", "Herz", "z", "p", "n", "6", "7"]
    else:
        cycle = ["1", "C", "2", "C", "3", "C", "4", "C", "5", "C", "d", "p", "t", "6", "7"]
    return "\n".join(itertools.islice(itertools.cycle(cycle), lines)) + "\n"


@pytest.mark.parametrize(
    ("typed", "lang", "move"),
    [
        ("Herz Dame", "de", "QH"), ("DH", "de", "QH"), ("10Ka", "de", "TD"), ("Kreuz-Bube:Herz", "de", "JC:H"),
        ("BKr:ka", "de", "JC:D"), ("ass pik", "de", "AS"), ("König Karo", "de", "KD"), ("7 kreuz", "de", "7C"),
        ("ziehen", "de", "draw"), ("passen", "de", "pass"), ("nehmen", "de", "take"), ("z", "de", "draw"),
        ("n", "de", "take"), ("QH", "de", "QH"), ("JC:S", "de", "JC:S"), ("KD", "de", "KD"),
        ("DH", "en", "DH"), ("d", "en", "draw"), ("t", "en", "take"), ("ziehen", "en", "draw"),
    ],
)  # fmt: skip
def test_german_words_become_the_notation(typed: str, lang: str, move: str) -> None:
    assert to_notation(typed, lang) == move


def test_a_german_card_word_is_a_card_of_the_deck() -> None:
    from mauseloch.games.maumau import parse_card

    for suit, rank in itertools.product(["Herz", "Karo", "Pik", "Kreuz"], ["7", "8", "9", "10", "B", "D", "K", "A"]):
        assert parse_card(german_card(f"{suit} {rank}") or "") == german_card(f"{rank}{suit}")


def _first_legal_card(players: int = 3) -> tuple[int, str]:
    for seed in range(200):
        legal = [m for m in mauseloch.new_game("mau-mau", players=players, seed=seed).legal_moves() if ":" not in m]
        if legal and legal[0] not in ("draw",):
            return seed, legal[0]
    raise AssertionError("no seed")


def test_german_at_the_terminal_with_german_input(tmp_path: Path) -> None:
    seed, card = _first_legal_card()
    suit = {"H": "Herz", "D": "Karo", "S": "Pik", "C": "Kreuz"}[card[1]]
    rank = {"T": "10", "J": "Bube", "Q": "Dame", "K": "König", "A": "Ass"}.get(card[0], card[0])
    target = tmp_path / "g.json"
    args = ["play", "mau-mau", "-p", "3", "--seed", str(seed), "--lang", "de", "--save", str(target)]
    result = runner.invoke(app, args, input=f"{suit} {rank}\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    for words in ("Hausregeln: Ass setzt aus: nein", "Dein Zug>", "Deine Hand", "Spielcode: M3-", "Oberste Karte"):
        assert words in out, words
    assert "Your move" not in out and "House rules" not in out
    assert json.loads(target.read_text())["moves"][0] == [0, card]


def test_lang_must_be_de_or_en() -> None:
    result = runner.invoke(app, ["play", "mau-mau", "--lang", "fr"], input="q\n")
    assert result.exit_code == 2 and "--lang must be one of en, de" in result.output


def test_option_help_comes_from_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    from mauseloch.tui.common import options_help

    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    text = options_help("mau-mau")
    assert "ace_skips=true/false: Ass setzt aus: Ein Ass lässt" in text and "(Standard: nein)" in text
    assert "wiederholbar" in text
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    english = options_help("mau-mau")
    assert "ace_skips=true/false: Ace skips: An ace makes the next player miss a turn, like an eight." in english
    assert "move_limit=N: Move limit: After this many moves the game ends with the usual ranking. (default: 1000)" in (
        english
    )


def test_a_match_in_german_saves_as_one_record_that_replays(tmp_path: Path) -> None:
    target = tmp_path / "match.json"
    args = ["play", "mau-mau", "-p", "3", "--seed", "8", "--deals", "3", "--lang", "de", "--save", str(target)]
    result = runner.invoke(app, args, input=keyboard(german=True))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Stand nach Runde") == 3 and "Partie: Runde 3 von 3" in out
    assert "Die Partie ist vorbei" in out
    for leader in ("Platz 0 (du) spielt in dieser Runde aus", "Heuristik-Bot 1 spielt in", "Heuristik-Bot 2 spielt in"):
        assert leader in out
    match = load_any(target)
    assert isinstance(match, mauseloch.core.match.Match) and match.is_over and len(match.games) == 3
    replayed = runner.invoke(app, ["replay", str(target), "--all", "--lang", "de"])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.count("Stand nach Runde") == 3
    as_json = json.loads(runner.invoke(app, ["replay", str(target), "--json"]).output)
    assert as_json["totals"] == match.totals and as_json["deals"] == 3


def test_a_target_score_ends_a_terminal_match(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    args = ["play", "mau-mau", "-p", "4", "--seed", "2", "--deals", "40", "--target", "40", "--save", str(target)]
    result = runner.invoke(app, args, input=keyboard())
    assert result.exit_code == 0, result.output
    match = load_any(target)
    assert isinstance(match, mauseloch.core.match.Match)
    assert match.is_over and max(match.totals) >= 40 and len(match.games) < 40
    assert "The match is over. The winner:" in result.output or "The match is over. The winners:" in result.output


def test_load_goes_on_with_a_saved_game_and_a_saved_match(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    seed, card = _first_legal_card(2)
    args = ["play", "mau-mau", "-p", "2", "--seed", str(seed), "--save", str(saved)]
    first = runner.invoke(app, args, input=f"{card}\nq\n")
    assert first.exit_code == 0, first.output
    before = json.loads(saved.read_text())
    assert before["moves"] and not mauseloch.replay(before).is_over
    again = runner.invoke(app, ["play", "mau-mau", "--load", str(saved), "--save", str(saved)], input=keyboard())
    assert again.exit_code == 0, again.output
    assert "Going on from" in again.output
    after = json.loads(saved.read_text())
    assert after["moves"][: len(before["moves"])] == before["moves"] and mauseloch.replay(after).is_over
    over = runner.invoke(app, ["play", "mau-mau", "--load", str(saved)], input="q\n")
    assert over.exit_code == 2 and "game that is over" in over.output

    match_file = tmp_path / "m.json"
    args = ["play", "mau-mau", "-p", "2", "--seed", "5", "--deals", "2", "--save", str(match_file)]
    runner.invoke(app, args, input="q\n")
    resumed = runner.invoke(app, ["play", "mau-mau", "--load", str(match_file)], input=keyboard())
    assert resumed.exit_code == 0, resumed.output
    assert "Standings after deal 2" in resumed.output


def test_ctrl_c_offers_to_save_and_the_game_goes_on_from_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    target = tmp_path / "later.json"
    seed, card = _first_legal_card(2)
    answers: list[Any] = [card, KeyboardInterrupt(), str(target)]

    def typed(self: Console, prompt: str = "", **kw: Any) -> str:
        self.print(prompt, end="")
        answer = answers.pop(0) if answers else "q"
        if isinstance(answer, BaseException):
            raise answer
        return answer

    monkeypatch.setattr(Console, "input", typed)
    result = runner.invoke(app, ["play", "mau-mau", "-p", "2", "--seed", str(seed)])
    assert result.exit_code == 130, result.output
    assert "Save the game to go on later?" in result.output
    assert f"--load {target}" in " ".join(result.output.split()).replace("\n", "")
    assert not load_any(target).is_over


def test_a_deal_code_deals_the_same_cards(tmp_path: Path) -> None:
    game = mauseloch.new_game("mau-mau", players=3, seed=77, options={"ace_skips": True})
    code = code_of(game)
    target = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "mau-mau", "--deal", code, "--save", str(target)], input="q\n")
    assert result.exit_code == 0, result.output
    assert f"Deal code: {code}" in result.output
    record = json.loads(target.read_text())
    assert (record["deck"], record["options"], record["players"]) == (game.record()["deck"], game.options, 3)
    wrong = runner.invoke(app, ["play", "mau-mau", "--deal", "A3-12"], input="q\n")
    assert wrong.exit_code == 2 and "is for aus-die-maus" in wrong.output
    bad = runner.invoke(app, ["play", "mau-mau", "--deal", "nonsense"], input="q\n")
    assert bad.exit_code == 2 and "not a deal code" in bad.output


def test_rules_at_the_prompt_and_as_a_command() -> None:
    result = runner.invoke(app, ["play", "mau-mau", "-p", "2", "--seed", "1", "--lang", "de"], input="r\nq\n")
    assert "Mau-Mau — die Regeln" in result.output
    for game in mauseloch.GAMES:
        for lang in ("de", "en"):
            shown = runner.invoke(app, ["rules", game, "--lang", lang])
            assert shown.exit_code == 0, shown.output
            assert ("Regeln" in shown.output) == (lang == "de") or game != "mau-mau"
    unknown = runner.invoke(app, ["rules", "skat"])
    assert unknown.exit_code == 2 and "unknown game" in unknown.output


def test_pace_pauses_and_changes_speed_at_once() -> None:
    from mauseloch.tui.pace import TICK, Pace

    keys: list[str] = []
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:  # while the bots wait: pause, then (a few ticks later) go on faster
            keys.extend([" "])
        if len(slept) == 6:
            keys.extend([" ", "+", "+"])

    pace = Pace(1.0, lambda: keys.pop(0) if keys else None)
    pace.wait(1.0, sleep)
    paused_ticks = 3  # ticks 4, 5, 6 are spent paused
    assert slept[3:6] == [TICK] * paused_ticks
    played = sum(slept) - TICK * paused_ticks
    assert pace.speed == pytest.approx(2.25)
    # 3 ticks at speed 1, the rest of the second at speed 2.25
    assert played == pytest.approx(3 * TICK + (1.0 - 3 * TICK) / 2.25)
    pace.handle("-")
    pace.handle("q")
    assert pace.speed == pytest.approx(1.5) and pace.quit
    pace.wait(5.0, sleep)  # a pace that was told to stop waits no more


def test_aus_die_maus_in_german_from_a_deal_code_and_loaded_again(tmp_path: Path) -> None:
    game = mauseloch.new_game("aus-die-maus", players=3, seed=21)
    code = code_of(game)
    target = tmp_path / "a.json"
    args = ["play", "aus-die-maus", "--deal", code, "--lang", "de", "--speed", "1e6", "--save", str(target)]
    result = runner.invoke(app, args, input="\n\n\nq\n")
    assert result.exit_code == 0, result.output
    assert f"Spielcode: {code}" in result.output and "Hausregeln: Kleines Spiel: ja" in result.output
    assert "dreht" in result.output and "Enter zum Umdrehen" in result.output
    saved = json.loads(target.read_text())
    assert saved["deck"] == game.record()["deck"] and saved["moves"]
    again = runner.invoke(app, ["play", "aus-die-maus", "--load", str(target), "--auto", "--speed", "1e6"])
    assert again.exit_code == 0, again.output
    assert "Going on from" in again.output and "Ranking" in again.output


def test_simulate_and_analyze_report_in_german(tmp_path: Path) -> None:
    sim = runner.invoke(app, ["simulate", "mau-mau", "-n", "40", "-w", "1", "--lang", "de"])
    assert sim.exit_code == 0, sim.output
    assert "Siege je Platz" in sim.output and "Spiellänge" in sim.output and "Wins per seat" not in sim.output
    found = runner.invoke(
        app, ["analyze", "aus-die-maus", "-p", "2", "--budget", "0.5", "--out", str(tmp_path), "--lang", "de"]
    )
    assert found.exit_code == 0, found.output
    assert "Verteilungen in" in found.output and "ansehen: mauseloch replay" in found.output


def test_slow_bots_for_the_youngest_wait_longer() -> None:
    from rich.console import Console

    from mauseloch.bots import make_bot
    from mauseloch.bots.random_bot import pause_factor
    from mauseloch.games.mausgeflippt.bots.reaction import LEVELS
    from mauseloch.tui.ausdiemaus import KeyReader, run

    assert pause_factor(make_bot("aus-die-maus", "slow")) == 2.5 and pause_factor(make_bot("mau-mau", "random")) == 1
    assert LEVELS["little"].median_ms > LEVELS["child"].median_ms
    waited = {}
    for kind in ("random", "slow"):
        slept: list[float] = []
        game = mauseloch.new_game("aus-die-maus", players=2, seed=4)
        console = Console(file=open("/dev/null", "w"), force_terminal=False)  # noqa: SIM115
        run(game, set(), ["a", "b"], console, 1.0, KeyReader(), sleep=slept.append, kinds={0: kind, 1: kind})
        waited[kind] = sum(slept)
        assert game.is_over
    assert waited["slow"] == pytest.approx(2.5 * waited["random"])
