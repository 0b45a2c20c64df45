"""The Bot API: programs play seats of the live server over HTTP with NDJSON streams (docs/bot-api.md).

A bot is one more front end of a table, like the WebSocket page: its seat's game stream is a
connection of the table (:class:`~mauseloch.server.handle.TableHandle.attach`) and gets exactly the
messages a page of that seat gets; its move goes down the table's one move path
(:meth:`~mauseloch.server.handle.TableHandle.apply`). The parts: bot tokens (:mod:`.tokens`), the
bots online and their challenges (:mod:`.online`), the routes (:mod:`.routes`), the rated ladder
(:mod:`.ladder`) and a client that runs any bot against a server (:mod:`.client`).
"""
