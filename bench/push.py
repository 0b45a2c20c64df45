"""Web Push under load: tables over days, one move each a second, every turn pushed.

Starts ``mauseloch serve`` (SQLite, --push-http) and the push service stand-in of
tests/pushservice.py on 127.0.0.1 (it checks each push's VAPID signature and decrypts it with the
device's keys, as a browser's push service and browser would). ``--tables`` tables of two people
over days ("1d") are created; each seat's device subscribes; then every table plays one move a
second (the seat to move sends a random legal move over its WebSocket) for ``--seconds``.

Reported (``--json``: one JSON line last, everything else on stderr):

- ``push_p99_ms`` / ``push_p50_ms``: from sending a move that gives the other seat the turn to
  that seat's push decrypted at the stand-in;
- ``server_cpu_us_per_push``: the server process's CPU (user + kernel, /proc) over the measured
  window per push delivered (its moves' work included: it is what a push costs a server that
  plays the moves too); ``server_cpu_us_per_move`` beside it;
- ``pushes``, ``moves``, ``refused`` (pushes the stand-in refused: must be 0), ``errors``.

    .venv/bin/python bench/push.py --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

import server as real  # bench/server.py: the server process and its CPU from /proc
from _report import print_json, text_to_stderr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.pushservice import Device, PushService


class Seat:
    def __init__(self, table: str, seat: int, token: str, device: Device) -> None:
        self.table, self.seat, self.token, self.device = table, seat, token, device
        self.ws: Any = None
        self.state: dict[str, Any] = {}


async def setup(http: httpx.AsyncClient, service: PushService, n: int) -> list[list[Seat]]:
    tables: list[list[Seat]] = []
    for i in range(n):
        body = {"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Anna",
                "clock": "1d", "public": True}  # fmt: skip
        made = (await http.post("/api/tables", json=body)).raise_for_status().json()
        table = made["table"]
        joined = (await http.post(f"/api/tables/{table}/join", json={"name": "Ben"})).raise_for_status().json()
        seats = []
        for seat, token in ((0, made["token"]), (1, joined["token"])):
            device = service.device(f"{table}-{seat}")
            sub = {"subscription": device.subscription(), "lang": "de" if seat == 0 else "en"}
            cookie = {"Cookie": f"ml_{table}={seat}:{token}"}
            (await http.post("/api/push/subscribe", json=sub, headers=cookie)).raise_for_status()
            seats.append(Seat(table, seat, token, device))
        tables.append(seats)
        if i % 100 == 99:
            print(f"{i + 1} tables", file=sys.stderr)
    return tables


async def recv_state(s: Seat) -> dict[str, Any]:
    while True:
        frame = json.loads(await s.ws.recv())
        if frame["type"] in ("snapshot", "update"):
            s.state = frame
            return frame
        if frame["type"] == "error":
            raise RuntimeError(frame)


async def play(base: str, seats: list[Seat], until: float, rng: random.Random, out: dict[str, Any]) -> None:
    for s in seats:
        s.ws = await connect(f"ws://{base}/ws/{s.table}", max_size=None)
        await s.ws.send(json.dumps({"type": "hello", "token": s.token, "seat": s.seat, "last_seq": 0}))
        await recv_state(s)
    await asyncio.sleep(rng.random())  # the tables' moves spread over each second
    while time.monotonic() < until:
        tick = time.monotonic()
        mover = next((s for s in seats if s.state["view"].get("legal_moves")), None)
        if mover is None or mover.state["view"]["is_over"]:
            break
        other = seats[1 - mover.seat]
        had = len(other.device.received)
        sent = time.time()
        await mover.ws.send(json.dumps({"type": "move", "move": rng.choice(mover.state["view"]["legal_moves"]),
                                        "version": mover.state["version"]}))  # fmt: skip
        await asyncio.gather(recv_state(mover), recv_state(other))
        out["moves"] += 1
        if other.state["view"].get("legal_moves"):  # the turn passed: its push is on its way
            while len(other.device.received) <= had:
                arrived = out["arrived"][other.device.name] = asyncio.get_running_loop().create_future()
                if len(other.device.received) <= had:  # not come while the future was made
                    await arrived
            out["latencies"].append((other.device.received[had].at - sent) * 1000)
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    for s in seats:
        await s.ws.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, PushService() as service:
        proc, port = real.start_server(f"sqlite:///{tmp}/push.db", extra=(*real.NO_CAPS, "--push-http"))
        base = f"127.0.0.1:{port}"
        try:
            real.wait_ready([base])
            async with httpx.AsyncClient(base_url=f"http://{base}", trust_env=False, timeout=60) as http:
                tables = await setup(http, service, args.tables)
            out: dict[str, Any] = {"moves": 0, "latencies": [], "arrived": {}}
            loop = asyncio.get_running_loop()

            def woken(device: Device, _push: object) -> None:  # in the service's thread
                def wake() -> None:
                    waiting = out["arrived"].pop(device.name, None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(None)

                loop.call_soon_threadsafe(wake)

            service.on_push = woken
            rng = random.Random(args.seed)
            before, received = real.cpu_seconds(proc.pid) or 0.0, sum(len(d.received) for d in service.devices.values())
            until = time.monotonic() + args.seconds
            results = await asyncio.gather(
                *(play(base, seats, until, random.Random(rng.random()), out) for seats in tables),
                return_exceptions=True,
            )
            await asyncio.sleep(0.5)  # the last pushes arrive
            cpu = (real.cpu_seconds(proc.pid) or 0.0) - before
            pushes = sum(len(d.received) for d in service.devices.values()) - received
        finally:
            proc.terminate()
            proc.wait(60)
        errors = [repr(r) for r in results if isinstance(r, BaseException)]
        lat = sorted(out["latencies"])

        def pct(p: float) -> float:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else 0.0

        return {
            "tables": args.tables,
            "seconds": args.seconds,
            "moves": out["moves"],
            "pushes": pushes,
            "push_p50_ms": pct(0.50),
            "push_p99_ms": pct(0.99),
            "server_cpu_us_per_push": round(cpu * 1e6 / max(1, pushes), 1),
            "server_cpu_us_per_move": round(cpu * 1e6 / max(1, out["moves"]), 1),
            "refused": len(service.refused),
            "errors": len(errors),
            "error_kinds": errors[:5],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play measured")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the rest on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)
    figures = asyncio.run(run(args))
    print(f"{figures['pushes']} pushes, p99 {figures['push_p99_ms']} ms, "
          f"{figures['server_cpu_us_per_push']} us CPU a push", file=sys.stderr)  # fmt: skip
    print_json(figures, out)


if __name__ == "__main__":
    main()
