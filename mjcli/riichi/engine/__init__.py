"""The riichi rules engine: one engine for verify, replay and simulate.

* ``events``      canonical game events (written by the log readers).
* ``state``       :class:`~mjcli.riichi.engine.state.Round`: one round as a state machine; ``apply(event,
                  index)``
                  checks legality and raises :class:`~mjcli.riichi.engine.legality.IllegalEvent`; ``finish()``
                  settles it (:class:`~mjcli.riichi.engine.state.RoundOutcome`).
* ``table``       :class:`~mjcli.riichi.engine.table.Game`: rounds in sequence, the next round's start, the
                  game's
                  end and result; :func:`~mjcli.riichi.engine.table.next_round` is that rule on its own.
* ``actions``     decision points: :func:`~mjcli.riichi.engine.actions.legal_actions` (what a seat may do now,
                  each action being the events it produces) and
                  :func:`~mjcli.riichi.engine.actions.table_step`
                  (what the table does when nobody acts: draw, dora, riichi accepted, a draw of the round).
* ``settlement``  payment arithmetic (honba, sticks, pao, double ron, tenpai, nagashi, uma/oka).
* ``scorer``      the door to ``mjcli.riichi.scoring`` (han, fu, yaku, base points of a win).
* ``waits``       fast memoised agari / wait tests on 34-count hands.
* ``legality``    the error type naming the offending event.
"""
