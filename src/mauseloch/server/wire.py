"""The wire's JSON Schema document (docs/events.schema.json; scripts/event_schema.py writes it):
every game's events, views and results, the WebSocket messages both ways (server/protocol.py),
per game the snapshot and the update a seat gets, and the HTTP answers the pages and bots read
(server/bodies.py). The page's tests check what it reads against it.
"""

from __future__ import annotations

from mauseloch.core.shapes import JSONObject
from mauseloch.server.bodies import (
    Accepted,
    BotsOnline,
    BotTable,
    Challenges,
    Done,
    ErrorBody,
    Games,
    Joined,
    Ladder,
    LadderEntered,
    Ladders,
    LadderSeat,
    MemberChanged,
    MemberHeld,
    MemberLeft,
    MemberLink,
    MemberRemoved,
    MemberToken,
    MoveTaken,
    MyTables,
    NewTable,
    OfflineBundle,
    PageLimits,
    PushKey,
    PushSeats,
    Room,
    RoomCreated,
    RoomSettingsSet,
    RulesPage,
    SeatChanged,
    SeatHeld,
    SeatLink,
    TableHint,
    TablesPage,
    Uploaded,
)
from mauseloch.server.protocol import ClientMessage, ErrorCode, ServerMessage, game_frames


def schema() -> JSONObject:
    """The JSON Schema document of docs/events.schema.json: every game's events, views and
    results, and the wire: the error codes, the client's and the server's WebSocket messages,
    per game the snapshot and the update a seat gets (its view, its events as it sees them), and
    the HTTP answers the pages read."""
    from mauseloch.core import schema as shapes
    from mauseloch.core.registry import GAMES

    wire: dict[str, object] = {
        "error_code": ErrorCode,
        "client_message": ClientMessage,
        "server_message": ServerMessage,
        # the HTTP answers the pages read
        "error_body": ErrorBody,
        "games": Games,
        "new_table": NewTable,
        "joined": Joined,
        "seat_held": SeatHeld,
        "seat_link": SeatLink,
        "uploaded": Uploaded,
        "rules_page": RulesPage,
        "push_key": PushKey,
        "push_seats": PushSeats,
        "offline_bundle": OfflineBundle,
        "page_limits": PageLimits,
        "tables_page": TablesPage,
        "my_tables": MyTables,
        "ladder": Ladder,
        "ladders": Ladders,
        "ladder_seat": LadderSeat,
        "ladder_entered": LadderEntered,
        "challenges": Challenges,
        "seat_changed": SeatChanged,
        "bots_online": BotsOnline,
        "room": Room,
        "room_created": RoomCreated,
        "member_token": MemberToken,
        "member_held": MemberHeld,
        "member_changed": MemberChanged,
        "member_left": MemberLeft,
        "member_link": MemberLink,
        "member_removed": MemberRemoved,
        "room_settings": RoomSettingsSet,
        "table_hint": TableHint,
        # the Bot API's answers
        "bot_table": BotTable,
        "accepted": Accepted,
        "done": Done,
        "move_taken": MoveTaken,
    }
    for game in sorted(GAMES):
        wire[f"snapshot.{game}"], wire[f"update.{game}"] = game_frames(game)
    return shapes.schema(wire)
