"""``mauseloch bot-token create|list|revoke`` and ``mauseloch bot connect``: the Bot API's commands.

A front end (Typer): the library parts are :mod:`mauseloch.server.botapi`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mauseloch.extras import MissingExtra, needs, require

with needs("web", __name__):
    import typer

if TYPE_CHECKING:
    from mauseloch.server.botapi.tokens import BotTokens

tokens_app = typer.Typer(help="Bot tokens for the Bot API (docs/bot-api.md).", no_args_is_help=True)
bot_app = typer.Typer(help="Run a bot on a server through the Bot API.", no_args_is_help=True)

DbOption = Annotated[
    str | None, typer.Option("--db", help="database URL of the server (default: SQLite in the user data dir)")
]


def _tokens(db: str | None) -> BotTokens:
    from mauseloch.server.botapi.tokens import BotTokens
    from mauseloch.server.storage.store import Store

    return BotTokens(Store(db))


@tokens_app.command("create")
def create(
    name: Annotated[str, typer.Option("--name", help="the bot's name, shown with it")], db: DbOption = None
) -> None:
    """Create a bot and print its token, once: only its hash is kept."""
    try:
        token = _tokens(db).create(name)
    except ValueError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(token)


@tokens_app.command("list")
def list_tokens(db: DbOption = None) -> None:
    """Every bot, with when it was created and whether its token is revoked."""
    for entry in _tokens(db).list():
        state = "revoked" if entry.revoked else "active"
        typer.echo(f"{entry.name}\t{state}\t{entry.created.isoformat(timespec='seconds')}")


@tokens_app.command("revoke")
def revoke(name: Annotated[str, typer.Argument(help="the bot's name")], db: DbOption = None) -> None:
    """Revoke a bot's token: it opens nothing any more (the name stays taken)."""
    if not _tokens(db).revoke(name):
        typer.echo(f"Error: no active bot named {name!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"revoked {name}")


@bot_app.command("connect")
def connect(
    url: Annotated[str, typer.Option("--url", help="the server, e.g. http://127.0.0.1:8000")],
    token: Annotated[str, typer.Option("--token", help="the bot token (mauseloch bot-token create)")],
    bot: Annotated[
        str, typer.Option("--bot", help="a registered bot kind (heuristic, random, …) or module:Class / file.py:Class")
    ] = "heuristic",
    games: Annotated[int, typer.Option(help="stop after this many games (0: never)")] = 0,
) -> None:
    """Accept challenges and play them with BOT until stopped (Ctrl-C), reconnecting as needed."""
    import logging

    from mauseloch.server.botapi.client import BotClient, Refusal, from_class, registered

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    factory = from_class(bot) if ":" in bot else registered(bot)
    client = BotClient(url, token, factory, games=games or None)
    try:
        client.run()
    except Refusal as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        client.stop.set()


def _needs_web(ctx: typer.Context) -> None:
    """Before any of these commands: the server's packages (the ``web`` extra) are installed."""
    try:
        require("web", f"mauseloch {ctx.info_name}")
    except MissingExtra as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None


tokens_app.callback()(_needs_web)
bot_app.callback()(_needs_web)


def register(app: typer.Typer) -> None:
    """Add the commands to the ``mauseloch`` command (cli.py)."""
    app.add_typer(tokens_app, name="bot-token")
    app.add_typer(bot_app, name="bot")
