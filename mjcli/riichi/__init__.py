"""Riichi (Japanese) mahjong: the one rules engine and everything built on it.

* ``rules``     rule sets as data (Tenhou's presets; variants override only what differs).
* ``scoring``   the one adapter over the ``mahjong`` library (yaku, fu, points).
* ``engine/``   the rules engine: events, a round's state, a game's rounds, legal actions, payments.
* ``formats/``  log readers and writers (Tenhou mjlog XML, tenhou.net/6 JSON, mjai), found by content.
* ``policies/`` the bot policies of the seeds, what they see (``PlayerView``) and answer (``Action``),
                and the bridge between the engine and them.
* ``verify``    every recorded outcome of a log recomputed and compared.
* ``replay``    every decision of a log put to every policy.
* ``simulate/`` policies seated at a table playing whole games.
* ``summary``   agreement summaries of a replay and the baseline gate.
* ``advise``    each policy's answer for one hand or one logged position.
"""
