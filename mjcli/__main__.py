"""``python -m mjcli``: the same command as ``mjcli``."""

from mjcli.cli import main

if __name__ == "__main__":
    main()
