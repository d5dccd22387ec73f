"""``mjcli report``: one self-contained HTML page of a replay, simulation or verify output.

* :mod:`~mjcli.report.build`: what the folder holds -> the page, written atomically;
* :mod:`~mjcli.report.outputs`: which command wrote the folder, for which game;
* :mod:`~mjcli.report.page`: the HTML (sections, tables, styles; no script, nothing loaded);
* :mod:`~mjcli.report.charts`: bars with interval whiskers, lines with bands, heat map, stacked bars
  as hand-written SVG; :mod:`~mjcli.report.tiles_svg`: tiles and cards as SVG, hands drawn with them;
* :mod:`~mjcli.report.agreement`: agreement with the players by group, with 95 % intervals;
* one module per game and output: ``riichi_replay``, ``riichi_simulation``, ``riichi_verify``,
  ``doudizhu_replay``, ``doudizhu_simulation``, ``hk_replay``, ``hk_simulation``, ``hk_verify``
  (Hong Kong and Red); the verify pages share :mod:`~mjcli.report.verify_sections`.

The report reads the tables the commands wrote and the figures their summaries compute
(:mod:`mjcli.riichi.summary`, ``summary.json``, :mod:`mjcli.doudizhu.summary`,
:mod:`mjcli.hk.summary`); it sits above them.
"""
