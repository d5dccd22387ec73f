"""The project's own exception types.

Nothing below the CLI prints or exits: library code raises one of these, and ``mjcli.cli`` turns
it into a one-line ``error: ...`` message and exit code 2 (bad input) for the user.
"""

import os
import re


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


class WrongGameError(UsageError):
    """Input written by another game than the one asked for (``game`` names it): the command layer,
    which knows every game's commands, may say more than "give --game GAME"."""

    def __init__(self, message: str, game: str) -> None:
        super().__init__(message)
        self.game = game


#: what a plugin's code may raise that is its bug, to be reported with its name and position: any
#: exception, and SystemExit (a plugin's sys.exit() ended the command silently, exit 0, nothing written)
PLUGIN_FAULTS: tuple[type[BaseException], ...] = (Exception, SystemExit)


class PluginBug(MjcliError):
    """A plugin (a user's policy) raised, or answered with something that is not one of the legal
    choices: Dou Dizhu's and Hong Kong's ``PluginError`` (riichi's is its ``PolicyError``). The command
    stops with one line naming the plugin and the position, exit 1 (:func:`mjcli.games.plugin_bugs_stop`)."""


#: the most characters of a user's input that a message quotes
QUOTE_LIMIT = 80
_LONG_QUOTE = re.compile(rf"(?<!\w)'([^'\n]{{{QUOTE_LIMIT + 1},}}?)'(?!\w)")
# runs of characters without a space, cut when longer still (a cut quote above stays as it is)
_LONG_WORD = re.compile(rf"\S{{{QUOTE_LIMIT + 10},}}")


def quoted(text: str) -> str:
    """A user's input in quotes for a message, cut to :data:`QUOTE_LIMIT` characters here: an input
    that holds a quote itself (``1m' 1m 1m ...``) is past what :func:`one_line` can tell apart from
    the message around it."""
    return "'" + (text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 3] + "...") + "'"


def short_path(path: str | os.PathLike[str]) -> str:
    """A path for a message: as it is, or its last characters (the file's name) when it is long."""
    text = os.fspath(path)
    return text if len(text) <= QUOTE_LIMIT else "..." + text[-(QUOTE_LIMIT - 3) :]


def _escaped(c: str) -> str:
    """An unprintable character as an escape; a byte of a file name that is not UTF-8 (a lone
    surrogate to Python) as ``\\xff``, as :func:`mjcli.inputs.name_text` writes it."""
    code = ord(c)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else repr(c)[1:-1]


def printable(text: str) -> str:
    """``text`` with its unprintable characters escaped (a newline in a file's name would break a
    listing of one line per file)."""
    return text if text.isprintable() else "".join(c if c.isprintable() else _escaped(c) for c in text)


def one_line(message: str) -> str:
    """A message as the user sees it: one line, unprintable characters escaped, and a quoted input
    (or any unbroken run of characters) longer than :data:`QUOTE_LIMIT` cut to its start and ``...``."""
    text = " ".join(message.split())
    text = printable(text)

    def cut(m: re.Match[str]) -> str:
        return "'" + m.group(1)[: QUOTE_LIMIT - 3] + "...'"

    text = _LONG_QUOTE.sub(cut, text)
    return _LONG_WORD.sub(lambda m: m.group(0)[:QUOTE_LIMIT] + "...", text)
