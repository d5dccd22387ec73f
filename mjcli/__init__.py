"""mjcli: a command-line toolkit and log-replay analyser for mahjong and Dou Dizhu bots."""

__version__ = "0.1.0"
