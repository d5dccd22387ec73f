"""The riichi rules engine: one engine for verify, replay and simulate.

* ``events``      canonical game events (written by the log readers).
* ``state``       :class:`~mjcli.game.state.Round`: one round as a state machine; ``apply(event, index)``
                  checks legality and raises :class:`~mjcli.game.legality.IllegalEvent`; ``finish()``
                  settles it (:class:`~mjcli.game.state.RoundOutcome`).
* ``table``       :class:`~mjcli.game.table.Game`: rounds in sequence, the next round's start, the game's
                  end and result; :func:`~mjcli.game.table.next_round` is that rule on its own.
* ``actions``     decision points: :func:`~mjcli.game.actions.legal_actions` (what a seat may do now,
                  each action being the events it produces) and :func:`~mjcli.game.actions.table_step`
                  (what the table does when nobody acts: draw, dora, riichi accepted, a draw of the round).
* ``settlement``  payment arithmetic (honba, sticks, pao, double ron, tenpai, nagashi, uma/oka).
* ``scorer``      the door to ``mjcli.scoring`` (han, fu, yaku, base points of a win).
* ``waits``       fast memoised agari / wait tests on 34-count hands.
* ``legality``    the error type naming the offending event.
"""
