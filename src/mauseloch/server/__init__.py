"""The web platform: lobby, tables over WebSocket, storage and replays (docs/protocol.md)."""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:  # keep ``import mauseloch.server.cli`` light
    if name == "create_app":
        from mauseloch.server.app import create_app

        return create_app
    raise AttributeError(name)
