"""Pace while watching bots in the terminal: Space pauses and goes on, ``+`` and ``-`` change the
speed, ``q`` stops. The bots' pauses are waited for in short ticks so that a key takes effect at
once; the speed may change in the middle of a pause."""

from __future__ import annotations

from collections.abc import Callable

from mauseloch.locale import Lang, t

TICK = 0.05  # seconds between looks at the keyboard
FACTOR = 1.5  # one press of + or - changes the speed by this factor
SLOWEST, FASTEST = 0.1, 1000.0


class Pace:
    def __init__(self, speed: float, keys: Callable[[], str | None], lang: Lang = "en", shown: bool = True) -> None:
        self.speed = speed
        self.keys = keys  # the next key pressed, or None when none is waiting
        self.lang = lang
        self.shown = shown  # whether the status line is worth showing (someone is watching)
        self.paused = False
        self.quit = False
        self.on_change: Callable[[], None] | None = None  # e.g. redraw the table with the new status

    def handle(self, key: str) -> None:
        if key == " ":
            self.paused = not self.paused
        elif key in ("+", "="):
            self.speed = min(FASTEST, self.speed * FACTOR)
        elif key == "-":
            self.speed = max(SLOWEST, self.speed / FACTOR)
        elif key.lower() == "q" or key == "\x03":
            self.quit = True

    def _take_keys(self) -> None:
        while (key := self.keys()) is not None:
            self.handle(key)
            if self.on_change is not None:
                self.on_change()

    def wait(self, seconds: float, sleep: Callable[[float], None]) -> None:
        """Wait ``seconds`` at speed 1 (``seconds / speed`` at this speed), longer while paused."""
        left = seconds  # in seconds at speed 1
        while not self.quit:
            self._take_keys()
            if self.paused:
                sleep(TICK)
                continue
            if left <= 0:
                return
            tick = min(TICK, left / self.speed)
            sleep(tick)
            left -= tick * self.speed

    @property
    def status(self) -> str:
        if not self.shown:
            return ""
        if self.paused:
            return f"[bold yellow]{t('pace.paused', self.lang)}[/]"
        return f"[dim]{t('pace.speed', self.lang)} ×{self.speed:.2g} · {t('pace.keys', self.lang)}[/]"
