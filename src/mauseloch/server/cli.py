"""``mauseloch serve``: run the web platform with uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer


def command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="database URL (sqlite:///file.db or postgresql://...); default: SQLite in the user data dir"),
    ] = None,
    bot_delay: Annotated[
        float | None, typer.Option(help="seconds a bot waits before it moves (default: about 0.6)")
    ] = None,
) -> None:
    """Serve the lobby and the tables in the browser."""
    import uvicorn

    from .app import create_app
    from .protocol import MAX_MESSAGE
    from .storage import default_url

    url = db or default_url()
    app = create_app(url, bot_delay=bot_delay)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    typer.echo(f"Mauseloch is serving at http://{shown}:{port}/  (database: {url.split('@')[-1]})", err=False)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=8 * MAX_MESSAGE, lifespan="on")
