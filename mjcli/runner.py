"""Tasks in, results out in input order: the one place where work runs in worker processes.

Every batch command (verify, replay, simulate, of every game) hands its tasks here. The runner owns
what they would otherwise each get slightly wrong:

* **order**: results come back in the order of the tasks whatever ``jobs`` is, so the files a run
  writes are the same bytes for any number of workers;
* **per-worker set-up**: ``setup`` builds once per worker process (or once in-process) whatever
  the tasks share, such as policy objects, and each task gets it as its first argument; nothing is
  cached in module globals of the caller. A set-up that fails is raised at once, never retried;
* **start method**: on Linux, workers are forked straight from this process when it runs no
  thread but its main one and has not imported Polars (:func:`forks_workers`): they start with
  everything it imported, in a few milliseconds. Otherwise ``forkserver`` on POSIX (workers fork
  from a clean server process that has imported the run's own modules, so they never inherit a
  thread's held lock or a Polars thread pool, which can deadlock a forked child), ``spawn``
  elsewhere;
* **signals**: only the main process acts on SIGINT and SIGTERM. The forkserver and the workers
  are started with both signals blocked (so a Ctrl-C sent to the whole process group does not
  reach them) and ignore them; in the main process either one kills every worker and raises
  :class:`Interrupted` (a ``KeyboardInterrupt``) from the loop, so the caller's ``with``/``finally``
  blocks remove their temporary files and the CLI exits 130.

The pool is the runner's own, not ``multiprocessing.Pool``: one pipe per worker and no helper
threads or locks shared with the workers, so killing a worker at any moment can never leave the
main process waiting on a lock that the dead worker held (``Pool.terminate`` could hang that way,
and a pool replaced workers that died, forever). A worker that dies unexpectedly stops the run
with :class:`WorkerDied` instead of hanging it. Inside a worker, a thread of its own writes its
answers (:class:`_Outbox`), so a worker never waits for the main process to read one.

**Back ends.** ``ordered_map`` runs tasks where its ``backend`` says: :class:`Processes` (the pool
above, ``jobs`` workers; the default) or :class:`RayCluster` (Ray tasks on a cluster started here or
joined by its address, see :class:`RayCluster`). The guarantees are the same: results in task order,
``setup`` once per worker process, a task's own exception raised in order and never retried, Ctrl-C
and SIGTERM ending in :class:`Interrupted` with nothing left running that the run started. Ray adds
retries: a task whose worker process dies (killed, out of memory, a node lost) runs again on another
worker, :data:`RAY_RETRIES` times at most, and only then stops the run with :class:`WorkerDied`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from mjcli.errors import MjcliError, UsageError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

T = TypeVar("T")
R = TypeVar("R")

#: what ``preload`` may name for a run whose workers look up shanten tables: the tables loaded once
#: in the forkserver (they load lazily), instead of in every worker on its first lookup
SHANTEN_TABLES = "mjcli.analysis.warm"


def _modules_of(*parts: Any) -> list[str]:
    """The modules that define ``parts`` (a run's ``work`` and ``setup``), followed through
    ``functools.partial`` and dataclass fields (the wrapper of a parted run): what a worker imports
    anyway when it unpickles them, so the forkserver imports them once instead."""
    import dataclasses

    found: list[str] = []

    def visit(obj: Any, depth: int) -> None:
        if depth > 4 or obj is None:
            return
        if isinstance(obj, functools.partial):
            for inner in (obj.func, *obj.args, *obj.keywords.values()):
                visit(inner, depth + 1)
            return
        module = getattr(obj, "__module__", None) if callable(obj) else type(obj).__module__
        if isinstance(module, str) and module not in ("builtins", "__main__") and module not in found:
            found.append(module)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            for f in dataclasses.fields(obj):
                visit(getattr(obj, f.name), depth + 1)

    for part in parts:
        visit(part, 0)
    return found


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
#: tasks sent to each worker as it starts when the main process then imports modules meanwhile
#: (``imports_meanwhile``: Polars, ~0.25 s of CPU, and longer in wall beside two busy workers): two
#: tasks of a simulation (0.05-0.15 s each) were done before that import was, and both workers
#: waited 0.07-0.1 s for their next ones (a timeline of simulate 16 games --jobs 2); four cover it
_AHEAD_WHILE_IMPORTING = 4
#: how long a worker may take to exit after its last task before it is killed
_EXIT_GRACE = 2.0
#: the longest the main process sleeps without looking at a pending Ctrl-C or SIGTERM
_TICK = 0.25


def _ignore_stop_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


#: what the main process sends a worker to stop it before the run's end (Ctrl-C, SIGTERM, an error);
#: None where the platform has no such signal (Windows): the worker is killed at once there
_STOP: signal.Signals | None = getattr(signal, "SIGUSR1", None)
#: how long a stopped worker may take to clean up before it is killed
_STOP_GRACE = 1.0


def _stop_now(signum: int, frame: object) -> None:
    """A worker asked to stop (:data:`_STOP`): it ends the processes it started, then itself at once.
    An outside bot runs in a process group of its own (apart from Ctrl-C), so killing the worker
    alone left it running: each child's group is killed. Not the process's exit functions: a worker
    forked from the main process inherited the main's (its temporary folders' clean-up), which must
    not run here; where there is no /proc to find the children, the worker was not forked from the
    main process (forkserver, spawn: see :func:`forks_workers`), and its exit functions, its own, do
    it (each bot's finalizer kills its group)."""
    try:
        children = _children()
        if children is None:
            import atexit

            atexit._run_exitfuncs()
        for pid in children or ():
            with contextlib.suppress(OSError):
                if os.getpgid(pid) == pid:  # a group of its own (a bot): the whole group
                    os.killpg(pid, signal.SIGKILL)
                else:
                    os.kill(pid, signal.SIGKILL)
    finally:
        os._exit(1)


def _children() -> list[int] | None:
    """This process's live children, from /proc (None where there is none)."""
    me = os.getpid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    found = []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == me and fields[0] != "Z":
            found.append(int(entry))
    return found


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling both ways, else a RuntimeError carrying its text."""
    import pickle  # workers only: not at the top, every command imports this module for --jobs

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _worker_main(
    conn: Connection,
    work: Callable[[Any, Any], Any],
    setup: Callable[[], Any] | None,
    forked: Sequence[Connection] | None = None,
) -> None:
    """One worker: build the context, say ready, then answer ``(index, task)`` messages until the
    main process closes the pipe. The main process alone decides what a signal does.

    ``forked``: this worker was forked from the main process (:func:`forks_workers`), with copies of
    every pipe end the run had open then (the main process imported the run's ``preload`` before)."""
    import pickle
    from multiprocessing.reduction import ForkingPickler

    from mjcli import process_settings

    _ignore_stop_signals()
    if _STOP is not None:
        signal.signal(_STOP, _stop_now)
    # (the server that forked this worker is Python's, with its collector's defaults; the variables
    # that numpy and Polars read at their import came with the environment, as they did to a main
    # process that imported the preload and forked)
    process_settings.apply()
    if forked is not None:
        # The other ends are the main process's and the other workers': a copy kept open here would
        # hide from a worker that the main process closed its pipe (its end of the run), and from
        # the main process that a worker died.
        for other in forked:
            other.close()
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
    outbox = _Outbox(conn)
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
        # pickled here, as ``conn.send`` would (a result that cannot be sent is this task's error);
        # the bytes go out from the outbox's thread while this one runs the next task
        try:
            data = ForkingPickler.dumps(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            data = ForkingPickler.dumps(
                (index, False, RuntimeError(f"task {index}: its result cannot be sent back ({exc})"))
            )
        del answer
        if not outbox.put(data):
            return


class _Outbox:
    """A worker's answers written to the main process by a thread of their own, in order.

    ``conn.send`` waits until the main process has read the whole answer, and the main process reads
    between its own steps (it makes the caller's frames and files from the answers before): a replay
    worker waited 30-50 ms of each 130 ms task so (bench_speed: "replay --jobs 2 vs 1"). The thread
    waits instead, with the GIL released while the pipe is full, and this worker runs its next task.
    At most ``_AHEAD`` answers wait here: the main process sends a task only for an answer read."""

    def __init__(self, conn: Connection) -> None:
        import queue
        import threading

        self._conn = conn
        self._queue: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self._broken = False
        # a daemon: at the pipe's end (the run done or stopped) nothing is left to write, or nobody reads
        threading.Thread(target=self._write, name="mjcli-worker-outbox", daemon=True).start()

    def put(self, data: bytes) -> bool:
        """Queue one pickled answer; False once the pipe is broken (the run was stopped)."""
        if self._broken:
            return False
        self._queue.put(data)
        return True

    def _write(self) -> None:
        while True:
            data = self._queue.get()
            try:
                self._conn.send_bytes(data)
            except OSError:
                self._broken = True
                return
            del data


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


def forks_workers() -> bool:
    """Would workers started now be forked straight from this process? Only on Linux, in a process with one
    thread (read from /proc, so a native library's threads count too: a fork copies the locks every
    other thread holds, held forever in the child) that has not imported Polars (which warns at a
    fork, and whose thread pool a child cannot use). A forked worker needs no server and no import
    of its own: CPU of every process of replay --jobs 2 of 19 hanchan, six alternated pairs on a
    noisy machine, 4.6-5.2 s with the forkserver and 4.0-4.9 s forked; simulate of 16 games
    2.2-3.2 -> 2.3-2.6 s (bench_speed, the ``--jobs`` rows).
    The commands keep Polars out of the main process until their workers run for this, and the
    progress bar starts no thread (:func:`mjcli.output.terminal_bar`)."""
    if sys.platform != "linux" or "polars" in sys.modules:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def ordered_map(
    work: Callable[[Any, T], R],
    tasks: Sequence[T],
    *,
    jobs: int = 1,
    setup: Callable[[], Any] | None = None,
    backend: Backend | None = None,
    preload: Sequence[str] = (),
    main_helps: bool = False,
    imports_meanwhile: Sequence[str] = (),
) -> Iterator[R]:
    """``work(context, task)`` for every task, yielded in task order.

    ``context`` is ``setup()``, built once per worker (``None`` without ``setup``). With ``jobs``
    above 1 and more than one task, tasks run in ``min(jobs, len(tasks))`` worker processes;
    ``work`` and ``setup`` must then be picklable (module-level functions or ``functools.partial``
    of them). An exception raised by a task (or by ``setup``) is raised here, in order; Ctrl-C or
    SIGTERM raise :class:`Interrupted` after every worker has been stopped. ``backend`` (when given,
    ``jobs`` is not used) says where the tasks run: :class:`Processes` or :class:`RayCluster`.
    ``preload`` names modules the workers need beyond those defining ``work`` and ``setup`` (such as
    :data:`SHANTEN_TABLES`): a forkserver started by this run imports both before its first worker;
    where the workers are forked from this process, this process imports ``preload`` before.
    ``main_helps``: with workers, this process runs tasks itself (with a ``setup()`` of its own)
    while the workers start, see :func:`_pool_map`; only for a ``setup`` whose context starts no
    outside process (nothing here would stop it): verify, and replay and simulate with built-in
    policies only (their main process then loads its own shanten tables, ~0.13 s, while the
    server imports: time otherwise spent waiting). Not where the workers are forked from this
    process (:func:`forks_workers`): they start at once.
    ``imports_meanwhile``: modules the caller will import on the first result anyway (Polars, to
    make frames of it), imported here once the workers have started, while they run their first
    tasks: imported on the first result, they kept this process from sending more tasks for 0.3-0.5
    s, and both workers of a replay --jobs 2 ran dry (bench_speed: "replay --jobs 2 vs 1").
    """
    if isinstance(backend, RayCluster):
        yield from _ray_map(backend, work, tasks, setup)
        return
    if isinstance(backend, Processes):
        jobs = backend.jobs
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
            yield from _pool_map(
                work, tasks, min(jobs, len(tasks)), setup, workers, preload, main_helps, imports_meanwhile
            )
        _finish(workers, main_helps)
    except KeyboardInterrupt as exc:
        raise exc if isinstance(exc, Interrupted) else Interrupted() from None
    finally:
        # Any way out (the end, a task's error, Ctrl-C, SIGTERM, the caller stopped reading): no
        # worker outlives the run. Killing is safe: workers share no lock with this process.
        _kill(workers)


def _start_forkserver(preload: Sequence[str]) -> None:
    """The forkserver running (started here if it is not), importing ``preload`` before it forks its
    first worker; nothing where workers are spawned. A server already running, from an earlier run
    of this process or :func:`start_workers_early`, keeps its preload: its workers import what they
    lack themselves."""
    import multiprocessing.forkserver
    import multiprocessing.resource_tracker

    ctx = multiprocessing.get_context(_context_name())
    if ctx.get_start_method() != "forkserver":
        return
    ctx.set_forkserver_preload(list(preload))
    # The resource tracker first: starting it unblocks SIGINT and SIGTERM in this thread
    # (after blocking them for its own start), which would undo the mask below.
    multiprocessing.resource_tracker.ensure_running()
    # a fork and an exec: the server imports the preload after it
    with _stop_signals_masked(), _stdout_not_inherited():
        multiprocessing.forkserver.ensure_running()


@contextmanager
def _stdout_not_inherited() -> Iterator[None]:
    """Standard output is /dev/null for a process started in the block (the workers' server, and
    so the workers). They have nothing to say there: results come back through their pipes, and a
    print would land in the middle of the command's own output. And a process holding the
    command's stdout keeps a pipe such as ``mjcli verify ... | jq`` open after the command is done:
    a server still importing when a small batch ended (done in this process, see
    :func:`_pool_map`) held it 0.1-0.3 s. Their standard error stays the command's."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no stdout at all (closed by the caller): nothing to keep from the server
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def start_workers_early(jobs: int | None, preload: Sequence[str]) -> None:
    """Start the server that forks the workers now, when a batch command knows that it will use
    workers (``jobs`` above 1, on this machine), before it imports its own modules: the server's
    imports of ``preload`` (the modules its work needs) then run on the other core while this
    process imports the same, instead of after it while the workers wait (about 0.4 s of a replay's
    wall time with --jobs 2). A bad ``jobs`` is left to the command to refuse."""
    try:
        if jobs_for(jobs) <= 1:
            return
    except UsageError:
        return
    if forks_workers():
        return  # the workers will be forked from this process (unless it has threads by then)
    _start_forkserver([*preload, *_main_script_imports()])


#: what the ``mjcli`` console script imports (``from mjcli.cli import main``)
_CLI_SCRIPT_IMPORTS = ("mjcli.cli",)


def _main_script_imports() -> tuple[str, ...]:
    """The modules a worker would import when it runs the main script again: multiprocessing runs a
    script's ``__main__`` (one started by path, such as the ``mjcli`` console script) in every
    worker it starts, so each worker imported ``mjcli.cli`` and Typer by itself. Imported once in the
    server instead, the script's own lines are all a worker runs: about 0.05 s CPU of each worker
    saved, on the critical path of every --jobs run (bench_speed ``jobs_and_memory`` rows). Nothing
    for ``python -m mjcli`` (multiprocessing skips a package's ``__main__``)."""
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None or not getattr(main, "__file__", None):
        return ()
    return _CLI_SCRIPT_IMPORTS if "mjcli.cli" in sys.modules else ()


def _pool_map(
    work: Callable[[Any, Any], Any],
    tasks: Sequence[Any],
    size: int,
    setup: Callable[[], Any] | None,
    workers: list[_Worker],
    preload: Sequence[str],
    main_helps: bool,
    imports_meanwhile: Sequence[str] = (),
) -> Iterator[Any]:
    """The tasks on ``size`` workers, results in task order.

    With ``main_helps`` this process runs tasks itself while the workers start. Starting one waits
    for the server to have imported the run's modules (it began at the command's start, see
    :func:`start_workers_early`, but this process usually gets here first): 0.1-0.3 s in which
    nothing ran (bench_speed ``jobs_and_memory``: a third of a 19-hanchan verify). A thread of this
    process starts the workers and sends each its first tasks; this thread meanwhile takes the next
    task in order for itself, until every worker has started. A batch that small may be done before
    any worker starts; otherwise this process then only feeds the workers and hands on the results,
    as before (it also makes the caller's frames and files)."""
    # imported here, not at the top: every command reads --jobs from this module, and only a run
    # with workers needs multiprocessing (about 30 ms of start-up saved for the others)
    import multiprocessing
    import threading
    from multiprocessing.connection import wait

    forking = forks_workers()
    if forking and preload:
        # Imported here, once, before the fork: every worker starts with them, as a server's would,
        # instead of each importing them (and loading the tables) after its fork; the caller needs
        # most of them anyway (numpy, for Polars). Replay of 19 hanchan --jobs 2, medians of 8
        # alternated runs (with replay's names resolved without the entry points): wall 3.04 ->
        # 2.73 s, CPU of every process 5.13 -> 4.92 s (bench_speed "replay --jobs 2 vs 1").
        for name in preload:
            with contextlib.suppress(ImportError):  # skipped, as the forkserver skips it
                importlib.import_module(name)
        forking = forks_workers()  # unless an import started a thread (a BLAS pool asked for)
    if forking:
        # a worker forked from here starts at once with this process's modules: nothing to do
        # meanwhile, and the main process keeps its core for the frames and files it makes
        ctx = multiprocessing.get_context("fork")
        main_helps = False
    else:
        ctx = multiprocessing.get_context(_context_name())
        # Only this run's modules: every worker waits for the server's imports, and the engines of
        # every game cost four hanchan of replay there.
        _start_forkserver([*preload, *_modules_of(work, setup)])
    unsent = 0  # the next task to send (or to run here)
    taking = threading.Lock()  # ``unsent`` while the starting thread and this one both take tasks
    done: dict[int, tuple[bool, Any]] = {}
    following = 0
    ends = [ctx.Pipe() for _ in range(size)]
    for mine, theirs in ends:
        args: tuple[Any, ...] = (theirs, work, setup)
        if forking:
            args += ([c for pair in ends for c in pair if c is not theirs],)
        workers.append(_Worker(ctx.Process(target=_worker_main, args=args, daemon=True), mine))

    def feed(w: _Worker, ahead: int = _AHEAD) -> None:
        nonlocal unsent
        while len(w.tasks) < ahead and unsent < len(tasks):
            # A task queued behind a busy worker waits there even when another worker falls idle:
            # near the end (no more tasks left than workers) each worker gets one at a time, so the
            # last tasks spread over every core instead of waiting in one worker's queue.
            if w.tasks and len(tasks) - unsent <= len(workers):
                return
            try:
                w.conn.send((unsent, tasks[unsent]))
            except OSError:  # the worker is gone (its pipe broken or reset)
                _lost(w)
            w.tasks.append(unsent)
            unsent += 1

    def start_all() -> None:
        # Ctrl-C may stop the run anywhere: a worker forked but not yet known here finds its pipe
        # closed when this process ends (or when the run closes it), and ends too.
        for w, (_, theirs) in zip(workers, ends, strict=True):
            w.process.start()  # from a server: waits for its imports
            theirs.close()
            # its first tasks at once: it reads them once its set-up is done, and this process
            # may be busy then (with a task of its own, or ``imports_meanwhile``)
            with taking:
                feed(w, _AHEAD_WHILE_IMPORTING if imports_meanwhile else _AHEAD)

    failed: list[BaseException] = []

    def start_all_in_thread() -> None:
        try:
            start_all()
        except BaseException as exc:  # raised in the main thread once it joins this one
            failed.append(exc)

    if main_helps:
        starter = threading.Thread(target=start_all_in_thread, name="mjcli-start-workers", daemon=True)
        starter.start()
        here = setup() if setup is not None else None  # this process's own context
        while starter.is_alive():
            with taking:
                index = unsent if unsent < len(tasks) else None
                unsent += index is not None
            if index is None:
                break
            try:
                done[index] = (True, work(here, tasks[index]))
            except Exception as exc:  # raised in order, as a worker's would be
                done[index] = (False, exc)
            while following in done:
                if not done[following][0]:
                    raise done.pop(following)[1]
                following += 1
                yield done.pop(following - 1)[1]
        del here
        if following == len(tasks):
            return  # all done here: the workers are not waited for
        starter.join()
        if failed:
            raise failed[0]
    elif forking:
        # The same protections as the server's: a Ctrl-C to the process group between a fork and
        # the worker's first line is blocked there (and ignored after it), and a worker does not
        # hold the command's standard output (nor write what this process had buffered for it).
        with contextlib.suppress(AttributeError, OSError, ValueError):
            sys.stderr.flush()
        with _stop_signals_masked(), _stdout_not_inherited():
            start_all()
    else:
        start_all()
    for name in imports_meanwhile:
        importlib.import_module(name)
    by_handle = {w.conn: w for w in workers} | {w.process.sentinel: w for w in workers}

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
                except (EOFError, ConnectionResetError):  # reset: it died with a task unread
                    _lost(w)
            elif not w.conn.poll():  # it ended, and said nothing more
                _lost(w)

    while following < len(tasks):
        # Never an unbounded wait: a Ctrl-C may land on a thread of a native library (polars'
        # jemalloc and clean-up threads do not block signals), which leaves this thread asleep in
        # select() until a worker answers; waking every _TICK lets the interrupt through at once.
        collect(0 if following in done else _TICK)
        while following in done:
            if not done[following][0]:
                raise done.pop(following)[1]
            following += 1
            # no name holds the result here: while the caller works on it, it is the caller's alone
            yield done.pop(following - 1)[1]
            collect(0)  # keep the workers fed while the caller works on this result


def _lost(w: _Worker) -> None:
    w.process.join(0.1)
    code = w.process.exitcode
    how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited (code {code})"
    pending = f" during task {w.tasks[0]}" if w.tasks else " before it was ready" if not w.ready else ""
    raise WorkerDied(f"a worker process {how}{pending}; the run is stopped")


def _finish(workers: list[_Worker], main_helped: bool = False) -> None:
    """Every task is done: close the pipes (the workers read the end and exit) and wait for them.
    A worker this process did the work of (``main_helped``) is not waited for while it starts: its
    context starts no outside process, and the caller's ``_kill`` ends it."""
    for w in workers:
        w.conn.close()
    deadline = time.monotonic() + _EXIT_GRACE
    for w in workers:
        if w.ready or not main_helped:
            w.process.join(max(0.0, deadline - time.monotonic()))


def _kill(workers: list[_Worker]) -> None:
    with stop_signals_deferred():  # a second Ctrl-C must not cut the clean-up short
        # asked first, so that each worker ends what it started (its bots), then killed if it lingers
        live = [w for w in workers if w.process.pid is not None and w.process.exitcode is None]
        for w in live if _STOP is not None else ():
            with contextlib.suppress(ProcessLookupError):
                os.kill(w.process.pid, _STOP)  # type: ignore[arg-type]
        deadline = time.monotonic() + (_STOP_GRACE if _STOP is not None else 0.0)
        for w in live:
            w.process.join(max(0.0, deadline - time.monotonic()))
        for w in live:
            if w.process.exitcode is None:
                w.process.kill()
        for w in workers:
            if w.process.pid is not None:
                w.process.join()
            w.conn.close()


# ---------------------------------------------------------------- back ends


class Backend:
    """Where :func:`ordered_map` runs tasks. :meth:`session` holds what the back end needs for a
    whole command (a Ray connection), :meth:`workers` is how many tasks run at once."""

    def session(self) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext(self)

    def workers(self) -> int:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Processes(Backend):
    """Worker processes on this machine (one task in-process when ``jobs`` is 1)."""

    jobs: int = 1

    def workers(self) -> int:
        return self.jobs

    def describe(self) -> str:
        return f"{self.jobs} job{'s' if self.jobs != 1 else ''}"


#: ``--ray`` without an address: start a Ray instance on this machine for the run (Ray's own word)
RAY_LOCAL = "local"
#: how often Ray runs a task again whose worker process died (a task's own exception: never)
RAY_RETRIES = 3
#: what to install when Ray is missing
RAY_INSTALL = "pip install 'mjcli[ray]'"


class ClusterError(MjcliError):
    """Ray is missing, or the cluster cannot be started or joined."""


@dataclass(frozen=True, slots=True)
class RayCluster(Backend):
    """Ray tasks on a cluster: one started on this machine for the run (``address`` None, with one
    CPU per core; it is shut down at the end, and nothing of it stays), or the one at ``address``
    (``HOST:PORT`` of its head, ``auto``, or ``ray://HOST:PORT`` with Ray Client), which the run joins
    as a driver and leaves as it was.

    The code runs in Ray's worker processes: mjcli (and the policies' code) must be importable there
    at the same version, and files the tasks read or write must be at the same paths on every node.
    """

    address: str | None = None

    @contextmanager
    def session(self) -> Iterator[RayCluster]:
        """Connected to the cluster while the block runs (already connected: nothing to do). SIGTERM
        raises :class:`Interrupted` meanwhile: ``ray.init`` puts its own handler in, which aborts."""
        ray = _import_ray()
        if ray.is_initialized():
            yield self
            return
        previous = _sigterm_handler()
        try:
            _ray_init(ray, self.address)
            with _terminate_on_signal():
                yield self
        except KeyboardInterrupt as exc:
            raise exc if isinstance(exc, Interrupted) else Interrupted() from None
        finally:
            with stop_signals_deferred():  # the shutdown stops what this run started: never cut short
                ray.shutdown()
                ray._private.worker._worker_logs_enabled = True
                if previous is not None:
                    signal.signal(signal.SIGTERM, previous)

    def workers(self) -> int:
        ray = _import_ray()
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def describe(self) -> str:
        where = "here" if self.address is None else f"at {self.address}"
        return f"Ray {where}, {self.workers()} CPUs"


def runs_here(backend: Backend | None, jobs: int, tasks: int) -> bool:
    """Does :func:`ordered_map` run ``tasks`` tasks in this process (with this ``backend``/``jobs``)?"""
    if isinstance(backend, RayCluster):
        return False
    if isinstance(backend, Processes):
        jobs = backend.jobs
    return jobs <= 1 or tasks <= 1


def backend_for(jobs: int | None, ray: str | None) -> Backend:
    """The back end of a batch command's ``--jobs`` and ``--ray`` values (``--ray`` alone: a local
    Ray; the two together are a usage error: Ray runs one task per CPU of its cluster)."""
    if ray is None:
        return Processes(jobs_for(jobs))
    if jobs is not None:
        raise UsageError("--jobs and --ray together: Ray runs one task per CPU of its cluster (drop --jobs)")
    address = ray.strip()
    if not address:
        raise UsageError("--ray '': give an address (HOST:PORT, auto or ray://HOST:PORT) or none")
    _import_ray()  # missing Ray is an error before any work
    return RayCluster(None if address == RAY_LOCAL else address)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--ray needs Ray, which is not installed here: {RAY_INSTALL}") from None
    return ray


def _sigterm_handler() -> Any:
    try:
        return signal.getsignal(signal.SIGTERM)
    except ValueError:
        return None


#: how many times the driver tries to reach the head's GCS (Ray's own setting of that name, used when
#: the user has not set it). A try lasts about 40 s when the port answers and the GCS does not
#: (something else listens there, or the head is stuck); Ray's default, 20 tries, is a quarter of an
#: hour of silence. A head reopening a large RocksDB state may need more: set it then.
RAY_GCS_TRIES = ("RAY_gcs_server_port_wait_time_s", "1")
#: how long the head's port may take to accept a connection
RAY_REACH_TIMEOUT = 5.0


def _ray_init(ray: Any, address: str | None) -> None:
    import logging

    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    what = f"cannot join the Ray cluster at {address}" if address else "cannot start Ray here"
    try:
        if address is None:
            ray.init(address=RAY_LOCAL, num_cpus=default_jobs(), include_dashboard=False, **quiet)
        else:
            _check_reachable(address)
            # Ray's core logs each failed try on stderr (whatever its log level says): what goes
            # wrong is the error below, in one line
            with _environ_default(*RAY_GCS_TRIES), _stderr_silenced():
                ray.init(address=address, **quiet)
        # The driver's thread that relays the cluster's messages (a worker died, a task is retried)
        # prints them on stdout, where --json lines go, whatever log_to_driver says: silenced with
        # Ray's own switch (what its debugger uses). They stay in the session's logs.
        ray._private.worker._worker_logs_enabled = False
    except BaseException as exc:
        with contextlib.suppress(Exception):
            ray.shutdown()  # whatever the start got to: nothing of it stays
        if isinstance(exc, KeyboardInterrupt):
            raise Interrupted() from None
        if isinstance(exc, ClusterError) or not isinstance(exc, Exception):
            raise
        raise ClusterError(f"--ray: {what} ({type(exc).__name__}: {_first_line(exc)})") from None


def _check_reachable(address: str) -> None:
    """A ClusterError at once when the head's port does not accept a connection where Ray will look
    for it. Ray's driver would retry that for about a quarter of an hour, 40 s a try. Ray replaces a
    loopback host (127.0.0.1, localhost) by this machine's routable address unless
    RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0, so a head that listens on loopback only is never found
    that way: the error says so. A Ray Client address (``ray://HOST:PORT``) is tried as written: Ray
    Client would wait about 30 s before it says that nothing answers (when ray[client] is there)."""
    import importlib.util
    import socket

    from ray._private import services

    if address.startswith("ray://"):
        if importlib.util.find_spec("grpc") is None:
            return  # no Ray Client here: ray.init says which package it needs
        host, _, port = address.removeprefix("ray://").partition("/")[0].rpartition(":")
        if not host or not port.isdigit():
            return  # no port written (Ray's default then): ray.init says what is wrong
        try:
            with socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_REACH_TIMEOUT):
                return
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
        raise ClusterError(f"--ray: cannot join the Ray cluster at {address}: {reason}")
    try:
        resolved = services.canonicalize_bootstrap_address(address)
    except Exception:
        return  # a malformed address: ray.init says what is wrong with it
    if resolved is None:
        return  # auto with no cluster known here: ray.init says so
    host, _, port = resolved.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_REACH_TIMEOUT):
            return
    except (OSError, ValueError) as exc:
        reason = exc.strerror or type(exc).__name__ if isinstance(exc, OSError) else str(exc)
    shown = f"{host}:{port}"
    loopback = address.split(":")[0] in ("127.0.0.1", "localhost", "::1", "[::1]")
    if loopback and shown != address:
        raise ClusterError(
            f"--ray: cannot join the Ray cluster at {address}: Ray looks for it at this machine's address "
            f"{shown}, where nothing answers ({reason}); a head listening on loopback only is joined with "
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 set for mjcli too"
        )
    where = f" (Ray's address for it: {shown})" if shown != address else ""
    raise ClusterError(f"--ray: cannot join the Ray cluster at {address}{where}: {reason}")


@contextmanager
def _stderr_silenced() -> Iterator[None]:
    """File descriptor 2 sent to the null device while the block runs (what native code writes there
    too), then back."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            sys.stderr.flush()
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextmanager
def _environ_default(name: str, value: str) -> Iterator[None]:
    """``name`` set to ``value`` in this process's environment while the block runs, unless it is set
    already (the user's value wins); then as it was."""
    if name in os.environ:
        yield
        return
    os.environ[name] = value
    try:
        yield
    finally:
        os.environ.pop(name, None)


class _RunContext:
    """One run's ``work`` and ``setup`` in a Ray worker process, and the context ``setup()`` built
    there on the worker's first task of the run. Ray has no pool initializer: this object is owned by
    the run and travels inside the run's remote function (:func:`_remote_for`), which Ray exports
    once per run and loads once per worker process, so the context is built once per worker and
    run, and dies with the run's function. A worker that dies takes its context with it; the retried
    task builds one afresh in the worker that takes it over. A failed ``setup()`` is kept and raised
    by every task of the run (an application error: never retried)."""

    def __init__(self, work: Callable[[Any, Any], Any], setup: Callable[[], Any] | None) -> None:
        self.work = work
        self.setup = setup
        self._built = False
        self._context: Any = None
        self._failure: Exception | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"work": self.work, "setup": self.setup}  # what a worker needs, never a built context

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["work"], state["setup"])  # type: ignore[misc]

    def __call__(self, task: Any) -> Any:
        if not self._built:
            try:
                self._context = self.setup() if self.setup is not None else None
            except Exception as exc:
                self._failure = exc
            self._built = True
        if self._failure is not None:
            raise self._failure
        return self.work(self._context, task)


#: the name of a run's Ray task (a busy worker process carries it in its title: ``ray::NAME``)
RAY_TASK_NAME = "mjcli_task"


def _remote_for(ray: Any, run: _RunContext) -> Any:
    """The run's remote function: a closure over ``run``, so that Ray keeps it per worker."""

    def mjcli_task(task: Any) -> Any:
        return run(task)

    options = {"max_retries": RAY_RETRIES, "retry_exceptions": False}
    return ray.remote(**options)(mjcli_task).options(name=RAY_TASK_NAME)


def _ray_map(
    cluster: RayCluster,
    work: Callable[[Any, Any], Any],
    tasks: Sequence[Any],
    setup: Callable[[], Any] | None,
) -> Iterator[Any]:
    """:func:`ordered_map` on Ray: at most two tasks per CPU in flight (the rest wait here, so a run
    of a million tasks never holds a million references), results kept until their turn."""
    with cluster.session():
        ray = _import_ray()
        remote = _remote_for(ray, _RunContext(work, setup))  # work and setup go once, with the function
        window = max(2, 2 * cluster.workers())
        pending: dict[Any, int] = {}
        done: dict[int, Any] = {}
        following = submitted = 0
        try:
            with _terminate_on_signal():
                while following < len(tasks):
                    while submitted < len(tasks) and len(pending) < window:
                        ref = remote.remote(tasks[submitted])
                        pending[ref] = submitted
                        submitted += 1
                    if following not in done:
                        ready, _ = ray.wait(list(pending), num_returns=1)
                        for ref in ready:
                            done[pending.pop(ref)] = ref
                    while following in done:
                        value = _ray_value(ray, done.pop(following), following)
                        following += 1
                        yield value
        except KeyboardInterrupt as exc:
            raise exc if isinstance(exc, Interrupted) else Interrupted() from None
        finally:
            with stop_signals_deferred():
                for ref in pending:  # a joined cluster goes on without this run's tasks
                    with contextlib.suppress(Exception):
                        ray.cancel(ref, force=True)


def _ray_value(ray: Any, ref: Any, index: int) -> Any:
    """A task's result; its own exception raised as it was; a worker lost for good as WorkerDied."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, KeyboardInterrupt):
            raise Interrupted() from None
        if isinstance(cause, Exception):
            raise cause from None
        raise RuntimeError(f"task {index}: {_first_line(exc)}") from None
    except ray.exceptions.RayError as exc:
        raise WorkerDied(
            f"a Ray worker was lost during task {index} and its {RAY_RETRIES} retries; the run is stopped "
            f"({type(exc).__name__}: {_first_line(exc)})"
        ) from None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
