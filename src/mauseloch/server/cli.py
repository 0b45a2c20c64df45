"""``mauseloch serve``: run the web platform with uvicorn."""

from __future__ import annotations

import contextlib
import enum
import math
import sys
from pathlib import Path
from typing import Annotated

from mauseloch.extras import needs
from mauseloch.server.limits import Limits, http_protocol
from mauseloch.server.push import VAPID_SUBJECT

with needs("web", __name__):
    import typer

EXIT_BAD_ARGUMENTS = 2
DEFAULT_LIMITS = Limits()
SHUTDOWN_GRACE = 3  # seconds open HTTP streams get to end before a stopping server cancels them
DRAIN_SECONDS = 20.0  # seconds a stopping server hands its tables over at most (systemd waits 90)


class LogChoice(enum.StrEnum):
    text = "text"
    json = "json"


class LevelChoice(enum.StrEnum):
    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


def _refuse(message: str) -> typer.Exit:
    """One line on stderr and the exit code for a bad argument (``raise _refuse(...) from None``)."""
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(EXIT_BAD_ARGUMENTS)


# Every numeric option: (smallest, largest) value it takes. Beyond them a value is a typo or a
# trap (``inf`` seconds: bots that never move, deadlines sent as null), never a setting.
BOUNDS: dict[str, tuple[float, float]] = {
    "--bot-delay": (0.0, 60.0),
    "--clock-scale": (0.001, 1000.0),
    "--max-sockets-per-address": (0, 1_000_000),
    "--max-sockets": (0, 1_000_000),
    "--head-timeout": (0.0, 3600.0),
    "--max-heads-per-address": (0, 1_000_000),
    "--tables-per-minute": (0, 100_000),
    "--open-tables-per-address": (0, 100_000),
    "--rooms-per-hour": (0, 100_000),
    "--requests-per-second": (0.0, 1_000_000.0),
    "--waiting-minutes": (0.1, 7 * 24 * 60.0),
    "--refusal-delay": (0.0, 60.0),
    "--drain-seconds": (0.0, 3600.0),
}
SUPPORTED_DATABASES = "SQLite (sqlite:///file.db) and PostgreSQL (postgresql://user:password@host/db)"


def check_number(option: str, value: float) -> None:
    """Refuse (``ValueError``, one line) a value of ``option`` outside :data:`BOUNDS`, NaN and the infinities."""
    low, high = BOUNDS[option]
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{option} must be a number from {plain(low)} to {plain(high)}, got {value}")


def plain(number: float) -> str:
    """``1000000`` and ``0.1``, not ``1e+06`` and ``0.1000``."""
    return str(int(number)) if number == int(number) else str(number)


def check_database_url(url: str) -> None:
    """Refuse (``ValueError``, one line) a URL SQLAlchemy cannot read, a database other than
    SQLite and PostgreSQL, a missing driver, and a SQLite file that cannot be created or written;
    the server connects later."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
        backend = parsed.get_backend_name()
        if backend not in ("sqlite", "postgresql"):
            raise ValueError(
                f"--db: unknown kind of database {backend!r}; the supported ones are {SUPPORTED_DATABASES}"
            )
        parsed.get_dialect().import_dbapi()  # the driver, so a missing one is named here
    except NoSuchModuleError:  # (a kind of ArgumentError, so first)
        raise ValueError(f"--db {url!r}: unknown kind of database {url.split(':', 1)[0]!r}") from None
    except ArgumentError:
        raise ValueError(f"--db {url!r} is not a database URL (sqlite:///file.db or postgresql://...)") from None
    except ImportError as exc:
        raise ValueError(f"--db: the database driver is not installed ({exc.name})") from None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    path = Path(parsed.database)
    if path.is_dir():
        raise ValueError(f"--db: the SQLite file {path} is a folder")
    existed = path.exists()
    try:  # really open it: permission bits do not tell (root, read-only mounts)
        with path.open("ab" if existed else "xb"):
            pass
    except OSError as exc:
        raise ValueError(f"--db: cannot write the SQLite file {path}: {exc.strerror or exc}") from None
    if not existed:
        path.unlink(missing_ok=True)  # the store creates it with its tables


def check_redis(redis_url: str, db_url: str) -> None:
    """Refuse (``ValueError``) a Redis URL that is none, a missing ``redis`` package, and a database
    that several processes cannot share (SQLite)."""
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"--redis {redis_url!r} is not a Redis URL (redis://host:port/0)")
    try:
        import redis  # noqa: F401
    except ImportError:
        raise ValueError("--redis needs the redis package (pip install 'mauseloch[redis]')") from None
    if db_url.startswith("sqlite"):
        raise ValueError("--redis needs a database server every process shares: --db postgresql://...")


def command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on (0: any free port)")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="database URL (sqlite:///file.db or postgresql://...); default: SQLite in the user data dir. "
            "From the environment, its password stays off the process list",
            envvar="MAUSELOCH_DB",
        ),
    ] = None,
    bot_delay: Annotated[
        float | None, typer.Option(help="seconds a bot waits before it moves (default: about 0.6)")
    ] = None,
    clock_scale: Annotated[
        float, typer.Option(help="multiply every turn clock and grace time (e.g. 0.05 for fast test runs)")
    ] = 1.0,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://host:port/0): run as one of several processes sharing --db (PostgreSQL) "
            "and Redis behind one address; see docs/deploy.md",
            envvar="MAUSELOCH_REDIS",
        ),
    ] = None,
    max_sockets_per_address: Annotated[
        int, typer.Option(help="open WebSockets per client address (0: no cap)")
    ] = DEFAULT_LIMITS.sockets_per_address,
    max_sockets: Annotated[int, typer.Option(help="open WebSockets in all (0: no cap)")] = DEFAULT_LIMITS.sockets_total,
    head_timeout: Annotated[
        float, typer.Option(help="seconds a connection has to send a whole request head (0: no limit)")
    ] = DEFAULT_LIMITS.head_timeout,
    max_heads_per_address: Annotated[
        int, typer.Option(help="connections of one address amid an unfinished request head (0: no cap)")
    ] = DEFAULT_LIMITS.heads_per_address,
    tables_per_minute: Annotated[
        int, typer.Option(help="tables one address may create per minute (0: no cap)")
    ] = DEFAULT_LIMITS.tables_per_minute,
    open_tables_per_address: Annotated[
        int, typer.Option(help="tables of one address that may wait for players at once (0: no cap)")
    ] = DEFAULT_LIMITS.open_tables_per_address,
    rooms_per_hour: Annotated[
        int, typer.Option(help="family rooms one address may create per hour (0: no cap)")
    ] = DEFAULT_LIMITS.rooms_per_hour,
    requests_per_second: Annotated[
        float, typer.Option(help="HTTP requests per address and second, on average (0: no cap)")
    ] = DEFAULT_LIMITS.requests_per_second,
    waiting_minutes: Annotated[
        float, typer.Option(help="a table waiting for players closes after this long without a join")
    ] = DEFAULT_LIMITS.waiting_minutes,
    refusal_delay: Annotated[
        float,
        typer.Option(help="seconds a refusal repeated within the minute waits for its answer (0: none)"),
    ] = DEFAULT_LIMITS.refusal_delay,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(help="address of a reverse proxy whose X-Forwarded-For is believed (repeatable)"),
    ] = None,
    metrics: Annotated[
        str | None,
        typer.Option(
            help="serve Prometheus figures at http://HOST:PORT/metrics, a loopback or private address "
            "of their own (default: none); see docs/operate.md"
        ),
    ] = None,
    log_format: Annotated[
        LogChoice, typer.Option(help="log lines as text or as one JSON object a line (docs/operate.md)")
    ] = LogChoice.text,
    drain_seconds: Annotated[
        float,
        typer.Option(
            help="on SIGTERM: seconds to hand the tables over to the other processes and send the "
            "sockets elsewhere before stopping anyway (docs/operate.md)"
        ),
    ] = DRAIN_SECONDS,
    log_level: Annotated[
        LevelChoice, typer.Option(help="the least important lines logged (info: a line per request too)")
    ] = LevelChoice.warning,
    vapid_key: Annotated[
        str | None,
        typer.Option(
            envvar="MAUSELOCH_VAPID_KEY",
            show_envvar=False,  # a secret: never shown in --help
            help="Web Push's VAPID private key (a PEM file, or the key itself; default: the one kept "
            "in the database, made on the first start); see docs/operate.md",
        ),
    ] = None,
    vapid_subject: Annotated[
        str,
        typer.Option(help="whom push services may write to about this server's pushes (mailto: or https:)"),
    ] = VAPID_SUBJECT,
    push_http: Annotated[
        bool,
        typer.Option(hidden=True, help="accept plain-http push services on this machine (tests, benchmarks)"),
    ] = False,
) -> None:
    """Serve the lobby and the tables in the browser."""
    import dataclasses
    import gc
    import ipaddress
    import resource
    import socket

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from mauseloch.server import logs
    from mauseloch.server.app import create_app
    from mauseloch.server.listen import DrainingServer
    from mauseloch.server.protocol import MAX_MESSAGE
    from mauseloch.server.storage.store import default_url, normalise_url

    if not 0 <= port <= 65535:
        raise _refuse(f"--port must be from 0 to 65535, got {port}")
    numbers = {
        "--bot-delay": bot_delay,
        "--clock-scale": clock_scale,
        "--max-sockets-per-address": max_sockets_per_address,
        "--max-sockets": max_sockets,
        "--head-timeout": head_timeout,
        "--max-heads-per-address": max_heads_per_address,
        "--tables-per-minute": tables_per_minute,
        "--open-tables-per-address": open_tables_per_address,
        "--rooms-per-hour": rooms_per_hour,
        "--requests-per-second": requests_per_second,
        "--waiting-minutes": waiting_minutes,
        "--refusal-delay": refusal_delay,
        "--drain-seconds": drain_seconds,
    }
    try:  # all before the socket is bound
        for option, value in numbers.items():
            if value is not None:
                check_number(option, value)
    except ValueError as exc:
        raise _refuse(str(exc)) from None
    metrics_at: tuple[str, int] | None = None
    if metrics is not None:
        from mauseloch.server.metrics import check_address  # prometheus-client: only when asked for

        try:
            metrics_at = check_address(metrics)
        except ValueError as exc:
            raise _refuse(str(exc)) from None
        if metrics_at[1] == port and port != 0:
            raise _refuse(f"--metrics {metrics} is the public port: give the figures a port of their own")
    for proxy in trusted_proxy or ():
        try:
            ipaddress.ip_address(proxy)
        except ValueError:
            raise _refuse(f"--trusted-proxy {proxy!r} is not an IP address") from None
    limits = dataclasses.replace(
        DEFAULT_LIMITS,
        sockets_per_address=max_sockets_per_address,
        sockets_total=max_sockets,
        head_timeout=head_timeout,
        heads_per_address=max_heads_per_address,
        tables_per_minute=tables_per_minute,
        open_tables_per_address=open_tables_per_address,
        rooms_per_hour=rooms_per_hour,
        requests_per_second=requests_per_second,
        waiting_minutes=waiting_minutes,
        refusal_delay=refusal_delay,
        trusted_proxies=tuple(trusted_proxy or ()),
    )
    # every WebSocket holds a file: allow as many as the hard limit lets us, so the caps (not
    # the operating system) decide when the server is full
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
    url = normalise_url(db) if db else default_url()
    try:
        check_database_url(url)
        if redis is not None:
            check_redis(redis, url)
    except ValueError as exc:
        raise _refuse(str(exc)) from None
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    except OSError as exc:
        raise _refuse(f"cannot listen on {host}: {exc.strerror or exc}") from None
    try:
        sock.bind((host, port))
        # listening before the address is printed: a client that reads it connects at once and
        # waits in the backlog while the app starts (restoring its tables), not refused
        sock.listen(2048)
    except (OSError, OverflowError) as exc:
        sock.close()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise _refuse(f"cannot listen on {host}:{port}: {reason}") from None
    logs.configure(log_format.value, log_level.value)
    figures = None
    metrics_server = None
    if metrics_at is not None:
        from mauseloch.server.metrics import Metrics, MetricsServer

        figures = Metrics()
        try:
            metrics_server = MetricsServer(figures, *metrics_at)
        except OSError as exc:
            sock.close()
            raise _refuse(f"cannot serve the metrics at {metrics}: {exc.strerror or exc}") from None
    redis_errors: tuple[type[Exception], ...] = ()
    if redis is not None:
        from redis.exceptions import RedisError

        redis_errors = (RedisError,)
    try:
        app = create_app(
            url, bot_delay=bot_delay, clock_scale=clock_scale, redis_url=redis, limits=limits, metrics=figures,
            vapid_key=vapid_key, vapid_subject=vapid_subject, push_http=push_http,
        )  # fmt: skip
        app.state.freeze_at_start = True  # a server process: what lives as long as it is frozen
        process = getattr(app.state.lobby, "pid", None)
        if isinstance(process, str):  # one of several: the id the others and /readyz know it by
            logs.name_process(process)
    except SQLAlchemyError as exc:  # e.g. a database server that does not answer
        sock.close()
        if metrics_server is not None:
            metrics_server.close()
        detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise _refuse(f"cannot use the database {url.rsplit('@', 1)[-1]}: {detail}") from None
    except redis_errors as exc:  # Redis does not answer
        sock.close()
        if metrics_server is not None:
            metrics_server.close()
        raise _refuse(f"cannot use Redis at {redis}: {exc}") from None
    # Everything loaded so far (modules, restored tables) lives as long as the server: keep it out of
    # the collector's passes (the lifespan freezes what it loads before the first table too: app.py). A closed
    # socket leaves no cycle (listen.py); what reaches the middle generation is what lives long
    # (tables in play, and a finished table once its last deadline has passed: some 30,000 objects
    # a minute at 1,000 seats). Its pass, which stopped every table for 160-270 ms every 50-90 s
    # with (20_000, 20, 20) at 1,000 seats (bench/server.py), comes every 50 young passes (some 4
    # minutes), the full one at 100. The young pass stays at 20,000: one of 50,000 took 60-90 ms
    # against 20-30 (more CPU an object, and a longer stop).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    # The event loop gets the GIL back within 0.5 ms, not 5: a psycopg or socket call releases it,
    # and a worker thread that took it meanwhile held the loop up to the interval's end
    # (bench/server.py, 2,000 seats on 2 processes: 416 moves/s and a p50 of 367 ms against
    # 256–288 and 680–880 ms with the default).
    sys.setswitchinterval(0.0005)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    shared = f", redis: {redis.rsplit('@', 1)[-1]}" if redis else ""
    typer.echo(f"Mauseloch is serving at http://{shown}:{bound}/  (database: {url.rsplit('@', 1)[-1]}{shared})")
    if metrics_server is not None and metrics_at is not None:
        at = f"[{metrics_at[0]}]" if ":" in metrics_at[0] else metrics_at[0]
        typer.echo(f"Metrics at http://{at}:{metrics_server.port}/metrics")
    # no per-message deflate: updates are a few KiB, and compressing each costs more CPU than it saves
    # the HTTP protocol refuses a flooding address's WebSocket handshakes before they are read (limits.py)
    config = uvicorn.Config(
        app,
        log_level=logs.uvicorn_level(log_level.value),  # never websockets' frames
        ws_max_size=8 * MAX_MESSAGE,
        ws_per_message_deflate=False,
        lifespan="on",
        http=http_protocol(app.state.guard),
        loop="mauseloch.server.listen:new_loop",  # accepts new connections in batches (listen.py)
        ws="mauseloch.server.listen:DirectWebSocket",  # writes a message's frame at once (listen.py)
        timeout_graceful_shutdown=SHUTDOWN_GRACE,  # the Bot API's streams never end on their own
        log_config=None,  # logs.configure did it; uvicorn's access log would write query strings
        access_log=False,
    )

    async def drain() -> None:
        if figures is not None:
            figures.draining.set(1)
        await app.state.lobby.drain(drain_seconds)

    try:
        DrainingServer(config, drain).run(sockets=[sock])
    finally:
        if figures is not None:
            figures.close()
        if metrics_server is not None:
            metrics_server.close()
