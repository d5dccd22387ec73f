"""Atomic file writing: write to a temporary name in the same folder, then rename.

An interrupted run never leaves a half-written output file; an existing file is replaced only
once the new one is complete. The file gets the mode any new file gets (0666 less the umask), not
the private 0600 of a temporary file.

A target that is no file (a device or a pipe: ``-o /dev/null``, a shell's ``-o >(gzip >
out.gz)``), and a name of an open descriptor (``-o /dev/stdout``, ``/dev/fd/N``,
``/proc/self/fd/N``, or a link to one, whatever the descriptor is open on: ``-o /dev/stdout >
out.txt``), is written straight to, as a shell's redirection does: there is no file of that name
to replace, and a rename onto it would put a regular file in the device's or the link's place (as
root, ``/dev/null`` or ``/dev/stdout`` themselves).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` when the block succeeds (a
    special file, :func:`is_special_file`: ``path`` itself)."""
    target = Path(path)
    if is_special_file(target):
        yield target
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
    finally:
        os.close(fd)
    tmp = Path(tmp_name)
    try:
        with room_said(target.parent):
            yield tmp
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


#: free room below which a Polars write that failed is taken for a full disk (see :func:`room_said`)
_ALMOST_FULL = 1 << 20


@contextlib.contextmanager
def room_said(folder: str | os.PathLike[str]) -> Iterator[None]:
    """A Polars write in the block that fails on a full filesystem raises the disk-full OSError
    (ENOSPC, no file named: what the command line reports as "cannot write the output").

    Polars 2.2's Parquet writer, out of room while it writes a file's footer, says only "parquet:
    File out of specification: Invalid thrift: transport error", without the "(os error 28)" its
    other failed writes carry (measured: a 39 KB table written onto a tmpfs with 31-47 KB left
    failed so 90 times in 256, and with the os error 64 times), and the run ended in a traceback.
    The same words come from reading a damaged file, so they are taken for a full disk only here,
    around a write, and only when the folder's filesystem has (almost) no room left."""
    try:
        yield
    except Exception as exc:
        if type(exc).__module__.startswith("polars") and "(os error" not in str(exc) and _full(folder):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)) from exc
        raise


def _full(folder: str | os.PathLike[str]) -> bool:
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):  # no statvfs (Windows), or the folder is gone
        return False
    return st.f_bavail * st.f_frsize < _ALMOST_FULL


def is_special_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is written straight to (see the module's docstring): it is there and, its
    symlinks followed, neither a file nor a folder (a device, a pipe, a socket), or it names an open
    descriptor."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)) or names_a_descriptor(path)


#: the names of open descriptors: /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, /proc/PID/fd/N
_DESCRIPTOR = re.compile(
    r"/dev/std(?:in|out|err)|/dev/fd/\d+|/proc/(?:self|thread-self|\d+)(?:/task/\d+)?/fd/\d+"
)


def names_a_descriptor(path: str | os.PathLike[str]) -> bool:
    """Whether ``path``, or a link it goes through (at most 40, as the system follows), is the name
    of an open descriptor (:data:`_DESCRIPTOR`). Its links are followed one by one, by their text:
    ``os.path.realpath`` would go on through ``/proc/self/fd/1`` to the file the descriptor is open
    on, where a rename would replace the link."""
    p = os.path.abspath(os.fspath(path))
    for _ in range(40):
        if _DESCRIPTOR.fullmatch(p):
            return True
        try:
            link = os.readlink(p)
        except (OSError, ValueError):
            return False
        p = os.path.normpath(os.path.join(os.path.dirname(p), link))
    return False


def current_umask() -> int:
    """The process's umask, read without changing it (Linux), else set and put back at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], writer: Callable[[Path], None]) -> None:
    """Call ``writer(tmp_path)`` and move the result onto ``path`` only if it succeeded."""
    with atomic_path(path) as tmp:
        writer(tmp)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
