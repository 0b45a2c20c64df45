"""Storage of tables, seats and moves, by concern (import each name from its module):

- ``rows``: a stored table as plain values (``TableRow``, ``SeatRow``; no database here);
- ``schema``: the tables and the statements built once from them;
- ``migrations``: the database brought up to date at start-up;
- ``plans``: a write as data, and the store's hot writes;
- ``sqlite``: SQLite's group commit per tick of the event loop;
- ``pglink``, ``postgres``: PostgreSQL's pipelined batches on connections the event loop holds;
- ``store``: ``Store``, the one door to the database.
"""
