"""The riichi table for ``mjcli simulate``: what the engine leaves to the table, one job a module.

* ``wall``    a seeded wall of the 136 physical tiles: deal, live draws, replacement draws, dora and
              ura indicators, red fives per the rules.
* ``claims``  the choice between simultaneous claims on one tile (Tenhou's priority, double and
              triple ron).
* ``seats``   a registered policy in a seat, asked through the engine-policy bridge
              (:mod:`mjcli.riichi.policies.bridge`), its answer checked for legality.
* ``driver``  one whole game: wall, seats and claims around the engine, and the complete record.
* ``bot_check`` ``mjcli bot check``: one short game with an outside bot in every seat, reported.
* ``stats``   per-policy figures with 95 % intervals clustered by deal, and paired differences.

The run itself (games in order, worker processes, logs and Parquet) is :mod:`mjcli.riichi.simulate.run`.
"""
