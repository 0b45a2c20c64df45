"""``mauseloch serve``: run the web platform with uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer


def command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on (0: any free port)")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="database URL (sqlite:///file.db or postgresql://...); default: SQLite in the user data dir"),
    ] = None,
    bot_delay: Annotated[
        float | None, typer.Option(help="seconds a bot waits before it moves (default: about 0.6)")
    ] = None,
    clock_scale: Annotated[
        float, typer.Option(help="multiply every turn clock and grace time (e.g. 0.05 for fast test runs)", min=0.001)
    ] = 1.0,
) -> None:
    """Serve the lobby and the tables in the browser."""
    import gc
    import socket

    import uvicorn

    from .app import create_app
    from .protocol import MAX_MESSAGE
    from .storage import default_url

    url = db or default_url()
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        typer.echo(f"cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    app = create_app(url, bot_delay=bot_delay, clock_scale=clock_scale)
    # Everything loaded so far (modules, restored tables) lives as long as the server: keep it out of
    # the collector's full passes, and collect the young generation less often, so that short-lived
    # messages die young. With the defaults, full passes stopped every table for 100 ms and more
    # under load (bench/server.py, 1000 seats); with these the longest measured was under 30 ms.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"Mauseloch is serving at http://{shown}:{bound}/  (database: {url.rsplit('@', 1)[-1]})")
    # no per-message deflate: updates are a few KiB, and compressing each costs more CPU than it saves
    config = uvicorn.Config(
        app, log_level="warning", ws_max_size=8 * MAX_MESSAGE, ws_per_message_deflate=False, lifespan="on"
    )
    uvicorn.Server(config).run(sockets=[sock])
