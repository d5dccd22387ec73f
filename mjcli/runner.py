"""Tasks in, results out in input order: the one place where work runs in worker processes.

Every batch command (verify, replay, simulate, of every game) hands its tasks here. The runner owns
what they would otherwise each get slightly wrong:

* **order**: results come back in the order of the tasks whatever ``jobs`` is, so the files a run
  writes are the same bytes for any number of workers;
* **per-worker set-up**: ``setup`` builds once per worker process (or once in-process) whatever
  the tasks share, such as policy objects, and each task gets it as its first argument; nothing is
  cached in module globals of the caller. A set-up that fails is raised at once, never retried;
* **start method**: ``forkserver`` on POSIX (workers fork from a clean server process that has
  imported ``preload``, so they start fast and never inherit a Polars thread pool in a forked
  child, which can deadlock), ``spawn`` elsewhere;
* **signals**: only the main process acts on SIGINT and SIGTERM. The forkserver and the workers
  are started with both signals blocked (so a Ctrl-C sent to the whole process group does not
  reach them) and ignore them; in the main process either one kills every worker and raises
  :class:`Interrupted` (a ``KeyboardInterrupt``) from the loop, so the caller's ``with``/``finally``
  blocks remove their temporary files and the CLI exits 130.

The pool is the runner's own, not ``multiprocessing.Pool``: one pipe per worker and no helper
threads or locks shared with the workers, so killing a worker at any moment can never leave the
main process waiting on a lock that the dead worker held (``Pool.terminate`` could hang that way,
and a pool replaced workers that died, forever). A worker that dies unexpectedly stops the run
with :class:`WorkerDied` instead of hanging it.

A Ray back end (or any other) belongs here too, behind the same ``ordered_map``.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import multiprocessing.forkserver
import multiprocessing.resource_tracker
import os
import pickle
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from mjcli.errors import MjcliError, UsageError

T = TypeVar("T")
R = TypeVar("R")

#: modules a forkserver imports once, before it forks workers (the engines and policies)
PRELOAD = (
    "mjcli.riichi.replay",
    "mjcli.riichi.verify",
    "mjcli.riichi.simulate.run",
    "mjcli.doudizhu.engine",
    "mjcli.hk.replay",
    "mjcli.hk.verify",
    "mjcli.hk.simulate",
)


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


#: the most workers a run may ask for (a typo such as --jobs 1000 must not start a thousand processes)
MAX_JOBS = 256


def jobs_for(jobs: int | None) -> int:
    """The number of workers for a ``--jobs`` value: None is one per core; 1 to :data:`MAX_JOBS`."""
    if jobs is None:
        return default_jobs()
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs {jobs}: use 1 to {MAX_JOBS} jobs")
    return jobs


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


class WorkerDied(MjcliError):
    """A worker process ended without answering (killed from outside, out of memory, a crash)."""


#: tasks sent ahead to each worker, so that it never waits for the main process between two tasks
_AHEAD = 2
#: how long a worker may take to exit after its last task before it is killed
_EXIT_GRACE = 2.0


def _ignore_stop_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling both ways, else a RuntimeError carrying its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _worker_main(conn: Connection, work: Callable[[Any, Any], Any], setup: Callable[[], Any] | None) -> None:
    """One worker: build the context, say ready, then answer ``(index, task)`` messages until the
    main process closes the pipe. The main process alone decides what a signal does."""
    _ignore_stop_signals()
    try:
        context = setup() if setup is not None else None
    except Exception as exc:
        with contextlib.suppress(OSError):
            conn.send((_SETUP, False, _portable(exc)))
        return
    try:
        conn.send((_READY, True, None))
    except OSError:  # the run was stopped while this worker started
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        index, task = message
        try:
            answer = (index, True, work(context, task))
        except Exception as exc:
            answer = (index, False, _portable(exc))
        try:
            conn.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send((index, False, RuntimeError(f"task {index}: its result cannot be sent back ({exc})")))
        except OSError:
            return


_READY = -1
_SETUP = -2


@dataclass(slots=True)
class _Worker:
    process: Any
    conn: Connection
    ready: bool = False
    tasks: list[int] = field(default_factory=list)  # indexes sent and not answered yet


@contextmanager
def _stop_signals_masked() -> Iterator[None]:
    """SIGINT and SIGTERM blocked in this thread's signal mask while the block runs. A process
    started here inherits the mask: the forkserver, and every worker it forks, never act on a Ctrl-C
    sent to the whole process group; only the main process decides (CPython starts its own resource
    tracker the same way)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGINT, signal.SIGTERM))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextmanager
def stop_signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM only noted while the block runs, then raised as :class:`Interrupted`: for
    a clean-up or a commit that a (second) Ctrl-C must not cut in the middle. In the main thread
    only; elsewhere the block just runs."""
    caught: list[int] = []
    try:
        previous = {
            s: signal.signal(s, lambda signum, frame: caught.append(signum))
            for s in (signal.SIGINT, signal.SIGTERM)
        }
    except ValueError:  # not the main thread: signals are the main thread's business
        yield
        return
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if caught:
        raise Interrupted()


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
    of them). An exception raised by a task (or by ``setup``) is raised here, in order; Ctrl-C or
    SIGTERM raise :class:`Interrupted` after every worker has been stopped.
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
    workers: list[_Worker] = []
    try:
        with _terminate_on_signal():
            yield from _pool_map(work, tasks, min(jobs, len(tasks)), setup, workers)
        _finish(workers)
    except KeyboardInterrupt as exc:
        raise exc if isinstance(exc, Interrupted) else Interrupted() from None
    finally:
        # Any way out (the end, a task's error, Ctrl-C, SIGTERM, the caller stopped reading): no
        # worker outlives the run. Killing is safe: workers share no lock with this process.
        _kill(workers)


def _pool_map(
    work: Callable[[Any, Any], Any],
    tasks: Sequence[Any],
    size: int,
    setup: Callable[[], Any] | None,
    workers: list[_Worker],
) -> Iterator[Any]:
    ctx = multiprocessing.get_context(_context_name())
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(list(PRELOAD))
        # The resource tracker first: starting it unblocks SIGINT and SIGTERM in this thread
        # (after blocking them for its own start), which would undo the mask below.
        multiprocessing.resource_tracker.ensure_running()
        with _stop_signals_masked():  # a fork and an exec: the server imports PRELOAD after it
            multiprocessing.forkserver.ensure_running()
    for _ in range(size):
        # Ctrl-C may stop this loop anywhere: a worker forked but not yet known here finds its pipe
        # closed when this process ends, and ends too.
        mine, theirs = ctx.Pipe()
        process = ctx.Process(target=_worker_main, args=(theirs, work, setup), daemon=True)
        workers.append(_Worker(process, mine))
        process.start()
        theirs.close()
    queue = iter(range(len(tasks)))
    done: dict[int, tuple[bool, Any]] = {}
    by_handle = {w.conn: w for w in workers} | {w.process.sentinel: w for w in workers}
    following = 0

    def feed(w: _Worker) -> None:
        while len(w.tasks) < _AHEAD:
            index = next(queue, None)
            if index is None:
                return
            w.conn.send((index, tasks[index]))
            w.tasks.append(index)

    def answer(w: _Worker) -> None:
        index, ok, value = w.conn.recv()
        if index == _SETUP:
            raise value
        if index == _READY:
            w.ready = True
        else:
            w.tasks.remove(index)
            done[index] = (ok, value)
        feed(w)

    def collect(timeout: float | None) -> None:
        handles = [w.conn for w in workers] + [w.process.sentinel for w in workers if w.process.sentinel]
        for handle in wait(handles, timeout):
            w = by_handle[handle]
            if handle is w.conn:
                try:
                    answer(w)
                except EOFError:
                    _lost(w)
            elif not w.conn.poll():  # it ended, and said nothing more
                _lost(w)

    while following < len(tasks):
        collect(0 if following in done else None)
        while following in done:
            ok, value = done.pop(following)
            following += 1
            if not ok:
                raise value
            yield value
            collect(0)  # keep the workers fed while the caller works on this result


def _lost(w: _Worker) -> None:
    w.process.join(0.1)
    code = w.process.exitcode
    how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited (code {code})"
    pending = f" during task {w.tasks[0]}" if w.tasks else " before it was ready" if not w.ready else ""
    raise WorkerDied(f"a worker process {how}{pending}; the run is stopped")


def _finish(workers: list[_Worker]) -> None:
    """Every task is done: close the pipes (the workers read the end and exit) and wait for them."""
    for w in workers:
        w.conn.close()
    deadline = time.monotonic() + _EXIT_GRACE
    for w in workers:
        w.process.join(max(0.0, deadline - time.monotonic()))


def _kill(workers: list[_Worker]) -> None:
    with stop_signals_deferred():  # a second Ctrl-C must not cut the clean-up short
        for w in workers:
            if w.process.pid is not None and w.process.exitcode is None:
                w.process.kill()
        for w in workers:
            if w.process.pid is not None:
                w.process.join()
            w.conn.close()
