"""A bot of your own on a Mauseloch server, through the Bot API (docs/bot-api.md).

It implements the ``Bot`` protocol — ``choose(view, legal) -> move``, seeing only its own seat's
view, the game's view struct (here Mau-Mau's ``MauMauView``) the client decodes from the stream —
and plays Mau-Mau: it keeps its jacks for last, plays the card of the suit it holds most
of, and draws only when nothing fits. Run it against a server with a token made there::

    mauseloch bot-token create --name wish-keeper --db sqlite:///mauseloch.db   # prints the token
    python examples/bot_wish_keeper.py --url http://127.0.0.1:8000 --token mlb_...

or, the same, through the command: ``mauseloch bot connect --url … --token … --bot
examples/bot_wish_keeper.py:WishKeeper``. Then seat it from the lobby (a seat "Bot online") or
let another bot challenge it. Any registered bot runs the same way: ``--bot heuristic``.
"""

from __future__ import annotations

import argparse
from collections import Counter

from mauseloch.core.views import View
from mauseloch.games.maumau.views import MauMauView


class WishKeeper:
    """Mau-Mau by a simple plan; any game's moves come from ``legal``, so it never plays an illegal one."""

    def __init__(self, game: str, seat: int) -> None:
        self.game = game
        self.seat = seat

    def choose(self, view: View, legal: list[str]) -> str:
        if not isinstance(view, MauMauView):  # another game: its first legal move
            return legal[0]
        hand = view.own_hand
        suits = Counter(card[-1] for card in hand if not card.startswith("J"))
        plain = [m for m in legal if len(m) == 2 and not m.startswith("J")]
        if plain:  # the suit it holds most of goes first: it keeps the most choices later
            return max(plain, key=lambda m: suits[m[-1]])
        jacks = [m for m in legal if m.startswith("J")]
        if jacks:  # a jack wishes for the suit it holds most of
            favourite = suits.most_common(1)[0][0] if suits else "H"
            return next((m for m in jacks if m.endswith(":" + favourite)), jacks[0])
        return legal[0]  # draw, take, pass: what the table allows


def main() -> None:
    from mauseloch.server.botapi.client import BotClient

    parser = argparse.ArgumentParser(description="Run the wish-keeper bot on a Mauseloch server.")
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    args = parser.parse_args()
    client = BotClient(args.url, args.token, lambda game, seat, table: WishKeeper(game, seat), games=args.games or None)
    try:
        client.run()
    except KeyboardInterrupt:
        client.stop.set()


if __name__ == "__main__":
    main()
