"""``mauseloch play mau-mau``: one person in the terminal against bots, drawn with Rich; a single
game or a match of several deals (``--deals``, ``--target``), in German or English (``--lang``),
from a deal code (``--deal``) or a saved game or match (``--load``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mauseloch.core.events import Event, public_type, seen_by
from mauseloch.core.shapes import OptionDict
from mauseloch.extras import needs
from mauseloch.games.maumau import parse_card, parse_wish
from mauseloch.games.maumau.events import (
    MauMauDeal,
    MauMauDraw,
    MauMauEnd,
    MauMauJackNoWin,
    MauMauMau,
    MauMauMauMau,
    MauMauPass,
    MauMauPenalty,
    MauMauPlay,
    MauMauReshuffle,
    MauMauReverse,
    MauMauSkip,
    MauMauStart,
    MauMauTake,
    MauMauWish,
)
from mauseloch.games.maumau.views import MauMauResult, MauMauView
from mauseloch.locale import Lang, t, tn, tnames
from mauseloch.tui.common import (
    ask,
    check_save_path,
    fail,
    lang_option,
    leave_unfinished,
    options_help,
    pick_lang,
    save_for_user,
    say_error,
    show_standings,
    shown,
)
from mauseloch.tui.words import ACTIONS, german_suit, to_notation

with needs("terminal", __name__):
    import typer

SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_STYLE = {"C": "bold", "S": "bold", "H": "bold red", "D": "bold red"}
ACTION_WORD = {"en": {v: v for v in ACTIONS.values()}, "de": {v: k for k, v in ACTIONS.items()}}
DrawSeen = public_type(MauMauDraw)  # what the other seats see of a draw (derived: seat and count)


def rank_label(rank: str, lang: Lang = "en") -> str:
    """The index on a card as the page prints it: the spec's letters in English (T for the ten,
    as in the moves), 10 and B, D, K, A in German."""
    if lang == "en":
        return rank
    return "10" if rank == "T" else t(f"face.{rank}", lang) if rank in "JQKA" else rank


def pretty(card: str, style: str | None = None, lang: Lang = "en") -> str:
    """Rich markup for a card, the one way every screen shows one: its index and the suit's
    symbol, whose shape, not its colour, tells suits apart. ``style`` overrides the suit's colour
    (dim for cards that cannot go)."""
    return f"[{style or SUIT_STYLE[card[1]]}]{rank_label(card[0], lang)}{SUIT_SYMBOL[card[1]]}[/]"


def suit_text(suit: str, lang: Lang = "en") -> str:
    return f"{SUIT_SYMBOL[suit]} {t(f'suit.{suit}', lang)}"


def seat_name(seat: int, me: int | None, lang: Lang = "en") -> str:
    """A seat's name where no names are given: 'Seat n', and '(you)' after the keyboard's seat."""
    base = t("common.seat", lang, n=seat)
    return f"{base} ({t('common.you', lang)})" if seat == me else base


def bot_name(kind: str, n: int, lang: Lang) -> str:
    level = t(f"bot.{kind}", lang)
    return t("bot.name", lang, level=kind if level == f"bot.{kind}" else level, n=n)


def describe(event: Event, me: int | None, lang: Lang = "en", names: list[str] | None = None) -> str | None:
    """A line of text for an event as ``me`` may see it (the copy :func:`seen_by` gives ``me``;
    None: not worth a line); the same catalogue texts as the page's event log
    (web/js/events-maumau.js)."""

    def who(seat: int) -> str:
        return shown(names[seat] if names else seat_name(seat, me, lang))

    match event:
        case MauMauPlay(seat=seat, card=card):
            return t("mm.ev.play", lang, name=who(seat), card=pretty(card, lang=lang))
        case MauMauWish(seat=seat, suit=suit):
            return t("mm.ev.wish", lang, name=who(seat), suit=suit_text(suit, lang))
        case MauMauPenalty(seat=seat, amount=amount):
            return f"[yellow]{tn('mm.ev.penalty', amount, lang, name=who(seat))}[/]"
        case MauMauTake(seat=seat, amount=amount):
            return tn("mm.ev.take", amount, lang, name=who(seat))
        case MauMauSkip(seat=seat):
            return t("mm.ev.skip", lang, name=who(seat))
        case MauMauReverse(seat=seat, direction=direction):
            return t("mm.ev.reverseCw" if direction == 1 else "mm.ev.reverseCcw", lang, name=who(seat))
        case MauMauDraw(seat=seat, count=count, cards=cards):  # whole: the drawer's own (or a replay's)
            if cards:
                return t("mm.ev.drawOwn", lang, name=who(seat), cards=" ".join(pretty(c, lang=lang) for c in cards))
            return tn("mm.ev.draw", count, lang, name=who(seat))
        # another seat's draw: the count, not the cards; the derived struct keeps MauMauDraw's seat
        # and count, which mypy cannot see through public_type
        case DrawSeen(seat=seat, count=count):  # type: ignore[misc]
            return tn("mm.ev.draw", count, lang, name=who(seat))
        case MauMauPass(seat=seat):
            return t("mm.ev.pass", lang, name=who(seat))
        case MauMauReshuffle(count=count):
            return tn("mm.ev.reshuffle", count, lang)
        case MauMauMau(seat=seat):
            return f"[bold magenta]{t('mm.ev.mau', lang, name=who(seat))}[/]"
        case MauMauMauMau(seat=seat):
            return f"[bold magenta]{t('mm.ev.mau_mau', lang, name=who(seat))}[/]"
        case MauMauJackNoWin(seat=seat):
            return t("mm.ev.jack_no_win", lang, name=who(seat))
        case MauMauStart(card=card):
            return t("mm.ev.start", lang, card=pretty(card, lang=lang))
        case MauMauEnd(reason=reason):
            return f"[bold]{t('mm.ev.end', lang, reason=reason_text(reason, lang))}[/]"
    return None


def reason_text(reason: str, lang: Lang) -> str:
    text = t(f"mm.reason.{reason}", lang)
    return shown(reason) if text == f"mm.reason.{reason}" else text


def command(
    players: int = typer.Option(4, "--players", "-p", help="Number of players, 2 to 5 (you are seat 0)."),
    bots: str = typer.Option(
        "heuristic",
        "--bots",
        "-b",
        help="Bot kind for every other seat (random or heuristic), or a comma list with one kind per bot seat.",
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed for the shuffle (default: a fresh one)."),
    option: list[str] = typer.Option([], "--option", "-o", help=options_help("mau-mau")),  # noqa: B008
    save: Path | None = typer.Option(None, "--save", help="Write the game's record to this file at the end."),  # noqa: B008
    lang_text: str | None = lang_option(),
    name: str | None = typer.Option(None, "--name", help="Your name at the table (default: Seat 0)."),
    deals: int = typer.Option(1, "--deals", help="Match play: the number of deals (1: a single game)."),
    target: int = typer.Option(0, "--target", help="Match play: also end once somebody has this many points."),
    load: Path | None = typer.Option(None, "--load", help="Go on with a game or match saved earlier."),  # noqa: B008
    deal: str | None = typer.Option(None, "--deal", help="Play the deal a deal code names (e.g. M4-1Z3KQ8V0)."),
) -> None:
    """Play Mau-Mau in the terminal against bots: one game, or a match of several deals."""
    from rich.console import Console

    import mauseloch
    from mauseloch.bots import bots_for_seats, make_bot
    from mauseloch.core.dealcode import code_of, decode, encode
    from mauseloch.core.match import Match, load_any
    from mauseloch.locale.rules import house_rules

    console = Console(highlight=False)
    lang = pick_lang(console, lang_text)
    info = mauseloch.GAMES["mau-mau"]
    match: Match | None = None
    try:
        if load is not None:
            loaded = load_any(load)
            if loaded.name != info.name:
                raise ValueError(t("term.loadGame", lang, path=load, game=loaded.name, wanted=info.name))
            if isinstance(loaded, Match):
                match, game = loaded, loaded.game
            else:
                game = loaded
            if match.is_over if match is not None else game.is_over:
                raise ValueError(t("term.loadOver", lang, path=load))
        else:
            options: OptionDict = info.options_from_text(option)
            if deal is not None:
                named = decode(deal)
                if named.game != info.name:
                    raise ValueError(t("term.dealGame", lang, code=deal.strip(), game=named.game, wanted=info.name))
                players, seed, options = named.players, named.seed, named.options | options
            if deals > 1 or target > 0:
                match = Match(info.name, players, seed, options, deals, target)
                game = match.game
            else:
                game = mauseloch.new_game(info.name, players=players, seed=seed, options=options)
        kinds = bots_for_seats(info.name, bots, game.players - 1)
        player_bots = {p: make_bot(info.name, kinds[p - 1], seed=game.seed + p) for p in range(1, game.players)}
    except ValueError as exc:
        raise fail(console, exc) from None
    check_save_path(console, save)
    from mauseloch.games.maumau.bots.heuristic import KERNEL_BOTS, prepare

    if set(kinds) & set(KERNEL_BOTS):  # compiled (or loaded) now, not at the bots' first move
        prepare(lambda: console.print(f"[dim]{t('term.compiling', lang)}[/]"))

    you = t("common.you", lang)
    me_name = f"{name.strip() or t('common.seat', lang, n=0)} ({you})" if name else seat_name(0, 0, lang)
    names = [me_name] + [bot_name(kinds[p - 1], p, lang) for p in range(1, game.players)]
    others = shown(", ".join(names[1:]))
    title = f"[bold]{info.title}[/]"
    console.print(t("term.against", lang, game=title, n=game.players, me=shown(names[0]), bots=others))
    code = encode(info.name, game.players, game.options, match.seed) if match else code_of(game)
    more = f" --deals {match.deals}" + (f" --target {match.target}" if match.target else "") if match else ""
    console.print(t("term.dealCode", lang, code=code).replace(f"--deal {code}", f"--deal {code}{more}"))
    house = house_rules(info.name, game.options, lang)
    console.print(t("term.houseRules", lang, rules=" · ".join(house)))
    if match is not None:
        console.print(f"[dim]{t('match.pointsNote', lang)}[/]")
    if load is not None:
        console.print(t("term.loaded", lang, path=shown(load), n=len(game.record()["moves"]) + 1))
    console.print(t("term.helpMm", lang) + "\n")

    def the_record() -> Any:
        return match if match is not None else game

    try:
        while True:
            if match is not None:
                game = match.game
                heading = "match.headingTarget" if match.target else "match.heading"
                said = t(heading, lang, deal=match.deal_number, deals=match.deals, target=match.target)
                console.print(f"\n[bold]{said}[/]")
                console.print(t("match.leads", lang, name=shown(names[match.player_at(0)])))
            at = [names[match.player_at(s)] for s in range(game.players)] if match else names
            me = match.seat_of(0) if match else 0
            _play_deal(console, game, me, at, {s: player_bots[match.player_at(s) if match else s]
                                              for s in range(game.players) if s != me}, lang)  # fmt: skip
            _show_result(console, game, me, at, lang)
            if match is None:
                break
            match.deal_over()
            show_standings(console, match, names, lang)
            if match.is_over:
                best = [names[s["player"]] for s in match.standings() if s["rank"] == 1]
                console.print(f"[bold green]{tnames('match.over', [shown(b) for b in best], lang)}[/]")
                break
            answer = ask(console, t("match.next", lang) + " ")
            if answer.strip().lower() in ("q", "quit", "exit"):
                raise EOFError
            match.next_deal()
    except EOFError:  # q, or the input ended
        raise leave_unfinished(console, the_record(), save, interrupted=False, lang=lang) from None
    except KeyboardInterrupt:
        raise leave_unfinished(console, the_record(), save, interrupted=True, offer=True, lang=lang) from None
    save_for_user(console, the_record(), save, lang=lang)


def _play_deal(console: Any, game: Any, me: int, names: list[str], seat_bots: dict[int, Any], lang: Lang) -> None:
    seen = 0
    while not game.is_over:
        if game.to_move == me:
            seen = _show_news(console, game, me, seen, names, lang)
            _show_table(console, game, me, names, lang)
            _play_human(console, game, me, lang)
        else:
            seat = game.to_move
            assert seat is not None
            game.play(seat_bots[seat].choose(game.typed_view(seat), game.legal_moves()))
    _show_news(console, game, me, seen, names, lang)


def _show_news(console: Any, game: Any, me: int, seen: int, names: list[str], lang: Lang) -> int:
    lines = []
    for event in game.event_log(seen):
        text = None if isinstance(event, MauMauDeal) else describe(seen_by(event, me), me, lang, names)
        if text:
            lines.append(text)
    if lines:
        console.print(f"[dim]{t('term.since', lang)}[/]")
        for line in lines:
            console.print(f"  {line}")
    return int(game.event_count)


def _show_table(console: Any, game: Any, me: int, names: list[str], lang: Lang) -> None:
    from rich.panel import Panel

    view: MauMauView = game.typed_view(me)
    legal = set(view.legal_moves or [])
    legal_cards = {m.partition(":")[0] for m in legal}
    others = "   ".join(
        t("term.others", lang, name=shown(names[s]), cards=_cards(c, lang)) + (" ←" if s == view.to_move else "")
        for s, c in enumerate(view.hand_counts)
        if s != me
    )
    top = f"{t('mm.top', lang)} {pretty(view.top, lang=lang)}"
    if view.wish:
        top += f"   [bold yellow]{t('mm.wish', lang, suit=suit_text(view.wish, lang))}[/]"
    if view.penalty:
        top += f"   [bold red]{t('mm.penalty', lang, n=view.penalty)}[/]"
    direction = t("mm.direction", lang, dir=t("mm.dir.cw" if view.direction == 1 else "mm.dir.ccw", lang))
    hand = "  ".join(
        f"[cyan]{i}[/]:{pretty(c, lang=lang)}" if c in legal_cards else f"[dim]{i}:[/]{pretty(c, 'dim', lang)}"
        for i, c in enumerate(view.hand or [], 1)
    )
    extra = [ACTION_WORD[lang][m] for m in ("draw", "pass", "take") if m in legal]
    lines = [
        others,
        f"{top}   {t('term.drawPile', lang, n=view.draw_pile)}   {direction}",
        "",
        f"{t('mm.hand', lang)}: {hand}",
    ]
    if view.drawn:
        lines.append(t("term.mmDrawnHint", lang, card=pretty(view.drawn, lang=lang)))
    if extra:
        lines.append(t("term.also", lang, moves=", ".join(extra)))
    console.print(Panel("\n".join(lines), title=t("term.move", lang, n=view.moves_played + 1), expand=False))


def _cards(count: int, lang: Lang) -> str:
    return tn("table.cards", count, lang)


def _show_rules(console: Any, lang: Lang) -> None:
    from rich.markdown import Markdown

    from mauseloch.locale.rules import rules_text

    try:
        console.print(Markdown(rules_text("mau-mau", lang)))
    except ValueError as exc:
        say_error(console, exc)


def _play_human(console: Any, game: Any, me: int, lang: Lang) -> None:
    """Read moves until the engine accepts one; bad input gets a clear message and changes nothing.
    German words become the notation first (tui.words); the engine judges the move. A jack that
    may go but comes without a good wish asks for the wish again, saying what is wrong."""
    view: MauMauView = game.typed_view(me)
    hand: list[str] = view.hand or []
    legal: list[str] = view.legal_moves or []
    while True:
        text = ask(console, f"[bold]{t('term.prompt', lang)}[/]").strip()
        if text.lower() in ("q", "quit", "exit"):
            raise EOFError
        if text.lower() in ("r", "regeln", "rules"):
            _show_rules(console, lang)
            continue
        if not text:
            continue
        move = to_notation(text, lang)
        number, colon, wish = move.partition(":")
        if number.strip().isdigit():
            index = int(number)
            if not 1 <= index <= len(hand):
                say_error(console, t("term.noCard", lang, i=index, n=len(hand)), prefix="")
                continue
            move = hand[index - 1] + colon + wish
            number = hand[index - 1]
        try:
            card = parse_card(number)
        except ValueError:
            card = ""  # not a card: the engine says what is wrong
        if card and any(m.startswith(card + ":") for m in legal):  # a jack that may go
            move = f"{card}:{_ask_wish(console, wish, bool(colon), lang)}"
        try:
            game.play(move, seat=me)  # the engine judges; a refused move changes nothing
        except ValueError as exc:
            say_error(console, refusal_text(exc, lang), prefix="")
            continue
        return


def refusal_text(exc: ValueError, lang: Lang) -> str:
    """The engine's refusal in the player's language: by its catalogue key when it gives one
    (cards and suits as this screen writes them), else its own words after a general line."""
    reason, params = getattr(exc, "reason", None), dict(getattr(exc, "params", {}))
    if lang == "en" or reason is None:
        return str(exc) if lang == "en" else f"{t('error.illegal', lang)} ({exc})"

    def card_word(move: str) -> str:  # "JC:H" -> "B♣:Herz" in German
        card, _, wish = move.partition(":")
        if len(card) != 2 or card[1] not in SUIT_SYMBOL:
            return move
        word = f"{rank_label(card[0], lang)}{SUIT_SYMBOL[card[1]]}"
        return f"{word}:{t(f'suit.{wish}', lang)}" if wish in SUIT_SYMBOL else word

    for name in ("card", "top"):
        if isinstance(params.get(name), str):
            params[name] = card_word(str(params[name]))
    if isinstance(params.get("suit"), str):
        params["suit"] = suit_text(str(params["suit"]), lang)
    for name in ("moves", "cards"):
        if isinstance(params.get(name), str):
            params[name] = ", ".join(card_word(m) for m in str(params[name]).split(", "))
    text = t(reason, lang, **params)
    if "moves" in params:
        text += "; " + t("refuse.legalNow", lang, moves=params["moves"])
    return text


def _ask_wish(console: Any, wish: str, typed: bool, lang: Lang) -> str:
    """The wished suit: the one typed after the colon if good, else asked for until it is."""
    while True:
        try:
            return parse_wish(german_suit(wish) or wish if lang == "de" else wish)
        except ValueError as exc:
            if typed:  # a wish was given (maybe an empty line): say what is wrong with it
                say_error(console, exc, prefix="")
        wish = ask(console, t("term.askWish", lang))
        if wish.strip().lower() in ("q", "quit", "exit"):
            raise EOFError
        typed = True


def _show_result(console: Any, game: Any, me: int, names: list[str], lang: Lang) -> None:
    from rich.table import Table

    result: MauMauResult = game.typed_result()
    view: MauMauView = game.typed_view(me)
    hands = view.hands or []  # every hand, once the game is over
    table = Table(title=t("term.result", lang, reason=reason_text(result.reason, lang)))
    for column in ("table.rank", "table.player", "mm.points", "table.leftWith"):
        table.add_column(t(column, lang))
    order = sorted(range(game.players), key=lambda s: result.ranks[s])
    for s in order:
        table.add_row(
            str(result.ranks[s]),
            shown(names[s]),
            str(result.points[s]),
            " ".join(pretty(c, lang=lang) for c in hands[s]),
        )
    console.print(table)
    rank = result.ranks[me]
    console.print(f"[bold green]{t('term.youWon', lang)}[/]" if rank == 1 else t("term.yourRank", lang, rank=rank))


# -- replays (``mauseloch replay``): the terminal registers this module for the game (tui/games.py)
def replay_move(move: str, lang: Lang = "en") -> str | None:
    """A move in the reader's words, its cards drawn as the game's screen draws them."""
    if move in ("draw", "pass", "take"):
        return t(f"term.replayMove.{move}", lang)
    card, _, wish = move.partition(":")
    if len(card) == 2 and card[1] in "CSHD":
        if wish in ("C", "S", "H", "D"):
            return t("term.replayMove.wish", lang, card=pretty(card, lang=lang), suit=suit_text(wish, lang))
        return pretty(card, lang=lang)
    return None


def replay_event(event: Event, game: Any, names: list[str], lang: Lang = "en") -> str | None:
    """What happened, as the game's screen says it to a spectator (whole: a replay sees every hand)."""
    return describe(event, None, lang, names)


def replay_board(game: Any, names: list[str], lang: Lang = "en") -> Any:
    """Every hand (a replay sees them all), the top card, the wish, the penalty and the draw pile."""
    from rich.console import Group
    from rich.text import Text

    view: MauMauView = game.typed_view(None)
    seats: list[MauMauView] = [game.typed_view(s) for s in range(game.players)]
    hands = [seen.hand or [] for seen in seats]
    lines = [
        f"   {shown(names[s])}{' ▶' if view.to_move == s else '  '} "
        + (" ".join(pretty(c, lang=lang) for c in hand) or f"[dim]{t('term.noCards', lang)}[/]")
        for s, hand in enumerate(hands)
    ]
    top = "   " + t("term.replayMm", lang, card=pretty(view.top, lang=lang))
    if view.wish:
        top += "   " + t("mm.wish", lang, suit=suit_text(view.wish, lang))
    if view.penalty:
        top += "   " + t("mm.penaltyOther", lang, n=view.penalty)
    top += "   " + t("term.drawPile", lang, n=view.draw_pile)
    return Group(*(Text.from_markup(line) for line in [*lines, top]))
