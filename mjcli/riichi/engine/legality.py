"""The engine's error for an event the rules do not allow, with where it happened."""

from __future__ import annotations

from mjcli.errors import LogFormatError


class IllegalEvent(LogFormatError):
    """An event that is impossible in the current state (named by its index in the event list).

    A subclass of LogFormatError: a log holding an impossible event is a corrupt log.
    """

    def __init__(self, index: int, event: object, reason: str) -> None:
        self.index = index
        self.event = event
        self.reason = reason
        super().__init__(f"event {index} ({describe(event)}): {reason}")


def describe(event: object) -> str:
    """A short one-line rendering of an event for messages."""
    from mjcli.tiles import tile_name

    name = type(event).__name__
    parts = []
    for attr in ("actor", "target", "tile", "consumed", "reason", "marker"):
        if not hasattr(event, attr):
            continue
        v = getattr(event, attr)
        if v is None:
            continue
        if attr in ("tile", "marker") and isinstance(v, int):
            v = tile_name(v)
        elif attr == "consumed":
            v = "".join(tile_name(t) for t in v)
        parts.append(f"{attr}={v}")
    return f"{name} {' '.join(parts)}".strip()
