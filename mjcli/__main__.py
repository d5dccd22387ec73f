"""``python -m mjcli``: the same command as ``mjcli``."""

from mjcli.cli import entry

if __name__ == "__main__":
    entry()
