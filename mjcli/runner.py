"""Tasks in, results out in input order: the one place where work runs in worker processes.

Every batch command (verify, replay, simulate, of every game) hands its tasks here. The runner owns
what they would otherwise each get slightly wrong:

* **order**: results come back in the order of the tasks whatever ``jobs`` is (``imap``, not
  ``imap_unordered``), so the files a run writes are the same bytes for any number of workers;
* **per-worker set-up**: ``setup`` builds once per worker process (or once in-process) whatever
  the tasks share, such as policy objects, and each task gets it as its first argument; nothing is
  cached in module globals of the caller;
* **start method**: ``forkserver`` on POSIX (workers fork from a clean server process that has
  imported ``preload``, so they start fast and never inherit a Polars thread pool in a forked
  child, which can deadlock), ``spawn`` elsewhere;
* **signals**: workers ignore SIGINT; Ctrl-C or SIGTERM in the main process terminates every
  worker and raises :class:`Interrupted` (a ``KeyboardInterrupt``) from the loop, so the caller's
  ``with``/``finally`` blocks remove their temporary files and the CLI exits 130.

A Ray back end (or any other) belongs here too, behind the same ``ordered_map``.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: modules a forkserver imports once, before it forks workers (the engines and policies)
PRELOAD = ("mjcli.riichi.replay", "mjcli.riichi.verify", "mjcli.riichi.simulate.run", "mjcli.doudizhu.engine")


class Interrupted(KeyboardInterrupt):
    """The run was stopped by SIGINT or SIGTERM; every worker has been terminated."""


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _value(v: Any) -> Any:
    return v


def shared(value: Any) -> Callable[[], Any]:
    """A ``setup`` that gives every task the same ``value`` (pickled once per worker)."""
    return functools.partial(_value, value)


def jobs_for(jobs: int | None) -> int:
    """The number of workers for a ``--jobs`` value: None is one per core; below 1 is an error."""
    from mjcli.errors import UsageError

    if jobs is None:
        return default_jobs()
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: use at least one job")
    return jobs


# The set-up's result in a worker process: set once by the pool's initializer, read by every task
# of that worker. It is the runner's own per-process slot, never shared between runs.
_worker_context: Any = None


_worker_failure: BaseException | None = None


def _init_worker(setup: Callable[[], Any] | None) -> None:
    global _worker_context, _worker_failure
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides what Ctrl-C does
    try:
        _worker_context = setup() if setup is not None else None
    except Exception as exc:
        # Raised here, the pool would start a new worker, which would fail the same way, forever:
        # keep the error and raise it from the first task instead, so that it reaches the caller.
        _worker_failure = exc


def _run_task(args: tuple[Callable[[Any, Any], Any], Any]) -> Any:
    if _worker_failure is not None:
        raise _worker_failure
    work, task = args
    return work(_worker_context, task)


@contextmanager
def _terminate_on_signal() -> Iterator[None]:
    """SIGTERM behaves like Ctrl-C while the block runs (both end in :class:`Interrupted`)."""

    def on_term(signum: int, frame: object) -> None:
        raise Interrupted()

    try:
        previous = signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _context_name() -> str:
    return "forkserver" if sys.platform != "win32" else "spawn"


def ordered_map(
    work: Callable[[Any, T], R],
    tasks: Sequence[T],
    *,
    jobs: int = 1,
    setup: Callable[[], Any] | None = None,
) -> Iterator[R]:
    """``work(context, task)`` for every task, yielded in task order.

    ``context`` is ``setup()``, built once per worker (``None`` without ``setup``). With ``jobs``
    above 1 and more than one task, tasks run in ``min(jobs, len(tasks))`` worker processes;
    ``work`` and ``setup`` must then be picklable (module-level functions or ``functools.partial``
    of them). An exception raised by a task is raised here, in order; Ctrl-C or SIGTERM raise
    :class:`Interrupted` after every worker has been stopped.
    """
    if jobs <= 1 or len(tasks) <= 1:
        context = setup() if setup is not None else None
        try:
            with _terminate_on_signal():
                for task in tasks:
                    yield work(context, task)
        except KeyboardInterrupt as exc:
            raise exc if isinstance(exc, Interrupted) else Interrupted() from None
        return
    ctx = multiprocessing.get_context(_context_name())
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(list(PRELOAD))
    pool = ctx.Pool(min(jobs, len(tasks)), initializer=_init_worker, initargs=(setup,))
    try:
        with _terminate_on_signal():
            yield from pool.imap(_run_task, [(work, t) for t in tasks], chunksize=1)
        pool.close()
    except BaseException as exc:  # Ctrl-C, SIGTERM, a task's error, or the caller stopped reading
        pool.terminate()
        pool.join()
        if isinstance(exc, KeyboardInterrupt) and not isinstance(exc, Interrupted):
            raise Interrupted() from None
        raise
    finally:
        # terminate() above, or close() after the last task: either way no worker outlives the run
        pool.join()
