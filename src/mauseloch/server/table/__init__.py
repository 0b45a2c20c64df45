"""One table's authority, by concern: the session (server/session.py) composes these parts.

- ``records``: the game a stored table describes, its record and replay frames (pure);
- ``summary``: what the lobby and the page's header show of a table (pure);
- ``writes``: the table's writes to the store, in order;
- ``moves``, ``presence``, ``pause``, ``bots``, ``deadlines``, ``match``: the parts of a running
  table, each holding its own state and asking the others through the session.
"""
