"""A table as one state machine (its runner and handle: server/session.py).

- ``state``: ``TableState``, all of a table's mutable data, built from its stored row;
- ``commands``: what a table is told and what its step answers (``Outcome``);
- ``step``: ``step(state, command) -> Outcome``, every check and decision, pure;
- ``frames``: what each seat is sent, built from the state.

These import the standard library, msgspec and the engine only (no Starlette, SQLAlchemy or
uvicorn), so the same machine runs in a browser's Python and sends the very same frames.
"""
