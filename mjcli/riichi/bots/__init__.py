"""Outside programs as players: the mjai protocol layer (modelled on python-chess's ``chess.engine``).

* :mod:`~mjcli.riichi.bots.protocol`  the mjai wire format: what a seat is sent (its masked events,
  in mjai.app's array framing or one event per line), and its answers read into the engine's legal
  actions; Mortal's ``meta`` (q-values) read by action.
* :mod:`~mjcli.riichi.bots.process`   one program's life: started in its own process group, lines
  with deadlines, stderr to a log file with its last lines quoted in errors, killed on a hang, never
  left behind.
* :mod:`~mjcli.riichi.bots.player`    :class:`MjaiBot`, the policy-like object replay, simulate and
  advise hold: one process per seat, reused game after game, each answer a legal action or a
  :class:`Fault`.

``mjcli bot check`` (a short seeded game with the bot in every seat) is
:mod:`mjcli.riichi.simulate.bot_check`.
"""

from mjcli.riichi.bots.player import (
    DEFAULT_TIMEOUT,
    BotAnswer,
    BotSettings,
    Fault,
    MjaiBot,
    bot_spec,
    check_settings,
    fallback,
)
from mjcli.riichi.bots.process import BotError, BotExited, BotProcess, BotStartError, BotTimeout

__all__ = [
    "DEFAULT_TIMEOUT",
    "BotAnswer",
    "BotError",
    "BotExited",
    "BotProcess",
    "BotSettings",
    "BotStartError",
    "BotTimeout",
    "Fault",
    "MjaiBot",
    "bot_spec",
    "check_settings",
    "fallback",
]
