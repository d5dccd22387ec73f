"""The project's own exception types.

Nothing below the CLI prints or exits: library code raises one of these, and ``mjcli.cli`` turns
it into a one-line ``error: ...`` message and exit code 2 (bad input) for the user.
"""


class MjcliError(Exception):
    """Base class: the message is shown to the user as it is, on one line."""


class NotationError(MjcliError, ValueError):
    """A tile, hand or meld string that cannot be read (unknown suit, digit without suit...)."""


class InvalidHandError(MjcliError, ValueError):
    """Tiles that are well written but impossible or unfit for the command (5 copies, wrong count)."""


class ScoringError(MjcliError, ValueError):
    """A hand that cannot be scored: not complete, or complete without any yaku."""


class LogFormatError(MjcliError):
    """A game log that is corrupt, truncated or of an unknown format."""


class UnsupportedError(MjcliError):
    """Input that is valid but not handled yet (for example three-player games)."""


class UsageError(MjcliError):
    """Options that do not fit together, unknown policy or rule-set names."""
