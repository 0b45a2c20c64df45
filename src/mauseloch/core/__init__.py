"""The engine's vocabulary: the Game protocol and GameInfo, events, records, replay, matches and deal codes."""
