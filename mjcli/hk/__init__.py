"""Hong Kong mahjong (Old Style) and its Red variant (jokers): rules, scoring, engine, the seed's
bots, logs, simulation, replay and verification.

Modules, each with one job:

- ``notation``: tile codes (kinds, the Red joker, flowers and seasons) and how they are written.
- ``rules``: the faan table as data, the variants (minimum, bonus faan, cap), the payment schemes,
  the presets ``hk`` and ``red``.
- ``shape``: shanten, completeness and waits (four sets and a pair, thirteen orphans; jokers).
- ``scoring``: the faan items of a winning hand; ``report``: a scored hand and a shanten table as text.
- ``engine/``: the wall, moves, one hand as a state machine, a game's progress.
- ``policies/``: seed 000's Hong Kong and Red bots over :mod:`mjcli.analysis.pm0`.
- ``formats/``: the JSON game log (written by simulate, read by replay and verify) and its walk.
- ``verify``, ``replay``, ``summary``, ``simulate``, ``advise``: the commands' work.
- ``game``: the ``--game hk`` and ``--game red`` entries.
"""
