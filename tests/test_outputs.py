"""Output paths (mjcli.outpaths): inputs are never overwritten, an output that cannot be written is an
error before any work, one run at a time writes into an --out folder, leftovers of killed runs go
away, and files get the mode the umask says."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from shared import LOGS
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import MjcliError, UsageError
from mjcli.outpaths import claim_file, output_dir

MJLOG = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"
SMALL = LOGS / "tenhou6-edge" / "chankan.json"
runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, list(args))


def error_of(res) -> str:
    """The project error a command ended with (the real CLI prints it as one ``error:`` line)."""
    assert isinstance(res.exception, MjcliError), res.output
    return str(res.exception)


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real command in a process of its own (``timeout`` only guards against a hang)."""
    return subprocess.run(
        [sys.executable, "-m", "mjcli", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    """A log of our own to convert (a copy in the test's folder: it may get hard links and modes)."""
    p = tmp_path / "in.mjlog"
    shutil.copyfile(MJLOG, p)
    return p


@pytest.fixture()
def unwritable(tmp_path: Path) -> Path:
    """A folder that cannot be written: by permission bits, or for root (whom they do not stop),
    a place in sysfs, where nothing can be created."""
    if os.geteuid() == 0:
        return Path("/sys/kernel/mjcli-test-out")
    d = tmp_path / "locked"
    d.mkdir()
    d.chmod(0o555)
    return d / "out"


# ---------------------------------------------------------------- convert -o


@pytest.mark.parametrize("spelling", ["same", "dotted", "hardlink", "symlink"])
def test_convert_refuses_to_write_over_its_input(source: Path, spelling: str) -> None:
    before = source.read_bytes()
    target = {
        "same": source,
        "dotted": source.parent / "." / source.name,
        "hardlink": source.parent / "link.mjlog",
        "symlink": source.parent / "sym.mjlog",
    }[spelling]
    if spelling == "hardlink":
        os.link(source, target)
    elif spelling == "symlink":
        target.symlink_to(source)
    res = cli("convert", str(source), "--to", "tenhou6", "-o", str(target))
    assert "would overwrite the input" in error_of(res)
    assert source.read_bytes() == before


def test_convert_never_writes_through_a_read_only_file(source: Path, tmp_path: Path) -> None:
    target = tmp_path / "old.json"
    target.write_text("keep me")
    target.chmod(0o444)
    res = cli("convert", str(source), "--to", "tenhou6", "-o", str(target))
    assert "is read-only" in error_of(res)
    assert target.read_text() == "keep me"
    source.chmod(0o444)  # read-only input, written onto itself: refused as the input
    res = cli("convert", str(source), "--to", "tenhou6", "-o", str(source))
    assert "would overwrite the input" in error_of(res)


def test_a_device_or_a_pipe_is_written_straight_to_and_stays_what_it_is(source: Path, tmp_path: Path) -> None:
    """``-o /dev/null``, ``-o /dev/stdout``, ``-o >(gzip > x.gz)``: written to as a shell's
    redirection does. The temporary file renamed onto the name put a regular file in a device's
    place (as root, /dev/null itself); the test makes its own device node (the null device's
    numbers) and pipe instead of touching /dev."""
    import threading

    expected = run("convert", str(source), "--to", "mjai").stdout
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    res = run("convert", str(source), "--to", "mjai", "-o", str(fifo))
    reader.join(30)
    assert res.returncode == 0, res.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got == [expected.encode("utf-8")]
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("cannot make a device node here (not root)")
    link = tmp_path / "to-null"
    link.symlink_to(node)
    for target in (node, link):
        res = run("convert", str(source), "--to", "mjai", "-o", str(target))
        assert res.returncode == 0, res.stderr
        assert stat.S_ISCHR(node.stat().st_mode) and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mjlog", "null", "pipe", "to-null"]


def test_a_name_of_an_open_descriptor_is_written_through_not_replaced(source: Path, tmp_path: Path) -> None:
    """``-o /dev/stdout > out.txt``: the descriptor is open on a regular file, and the rename went
    onto the link itself (the machine's /dev/stdout, as root). A link of the test's own to
    /proc/self/fd/1 stands for it; and a socket is refused before the work (open() cannot)."""
    import socket

    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    out = tmp_path / "out.txt"
    with out.open("w") as f:
        done = subprocess.run(
            [sys.executable, "-m", "mjcli", "convert", str(source), "--to", "mjai", "-o", str(link)],
            stdout=f,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    # (the converted lines are in the file; the command's own line about them, printed through the
    # shell's descriptor at its offset, may land over the first: two writers of one file, as with
    # any program given /dev/stdout)
    assert run("convert", str(source), "--to", "mjai").stdout.splitlines()[-1] in out.read_text()
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(tmp_path / "sock"))
        res = run("convert", str(source), "--to", "mjai", "-o", str(tmp_path / "sock"))
    assert res.returncode == 2 and "is a socket" in res.stderr


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("afile/x.json", "'afile' is not a directory"),
        ("emptydir", "is a directory: give a file name"),
        ("", "-o '': give a name"),
    ],
)
def test_convert_bad_output_names(
    source: Path, tmp_path: Path, name: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "afile").write_text("a file")
    (tmp_path / "emptydir").mkdir()
    monkeypatch.chdir(tmp_path)
    assert message in error_of(cli("convert", str(source), "--to", "tenhou6", "-o", name))


def test_the_real_command_says_it_in_one_line(source: Path, tmp_path: Path) -> None:
    res = run("convert", str(source), "--to", "tenhou6", "-o", str(tmp_path))
    assert res.returncode == 2
    assert res.stderr == f"error: -o '{tmp_path}' is a directory: give a file name\n"


# ---------------------------------------------------------------- an output folder that cannot be written


@pytest.mark.parametrize(
    "args",
    [
        # each would run for minutes before writing anything: the error comes first
        ["replay", str(LOGS)],
        ["verify", str(LOGS), "-j", "1"],
        ["simulate", "--games", "100000", "-j", "1"],
        ["simulate", "--game", "doudizhu", "--games", "1000000", "-j", "1"],
        ["replay", "--game", "doudizhu", str(LOGS)],
        ["simulate", "--game", "hk", "--games", "1000000", "-j", "1"],
        ["verify", "--game", "hk", str(LOGS), "-j", "1"],
        ["replay", "--game", "red", str(LOGS), "-j", "1"],
    ],
    ids=[
        "replay",
        "verify",
        "simulate",
        "simulate-doudizhu",
        "replay-doudizhu",
        "simulate-hk",
        "verify-hk",
        "replay-red",
    ],
)
def test_an_unwritable_out_folder_is_an_error_before_the_work(args: list[str], unwritable: Path) -> None:
    assert error_of(cli(*args, "--out", str(unwritable))).startswith(
        f"--out '{unwritable}': cannot write there"
    )


def test_convert_into_an_unwritable_folder(source: Path, unwritable: Path) -> None:
    res = cli("convert", str(source), "--to", "mjai", "-o", str(unwritable / "x.mjai"))
    assert "cannot write there" in error_of(res)


def test_an_out_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    res = cli("verify", str(SMALL), "--out", str(tmp_path / "f"))
    assert "exists and is not a directory" in error_of(res)
    res = cli("verify", str(SMALL), "--out", "")
    assert "give a name" in error_of(res)


def test_the_baseline_is_an_input_of_replay(tmp_path: Path) -> None:
    (tmp_path / "decisions.parquet").write_bytes(b"PAR1")
    res = cli("replay", str(SMALL), "--out", str(tmp_path), "--baseline", str(tmp_path / "decisions.parquet"))
    assert "would overwrite the input" in error_of(res)


# ---------------------------------------------------------------- one run at a time, leftovers, modes

#: what `verify --out` writes
VERIFY_TABLES = ["verify.parquet", "verify_games.parquet", "verify_mismatches.parquet"]


def test_a_second_run_into_a_busy_out_folder_is_refused(tmp_path: Path) -> None:
    with output_dir(tmp_path, ["verify.parquet"]) as stage:  # the first run, still at work
        assert stage is not None and stage.parent == tmp_path
        assert "is being written by another mjcli run" in error_of(
            cli("verify", str(SMALL), "--out", str(tmp_path))
        )
    res = cli("verify", str(SMALL), "--out", str(tmp_path))  # free again
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == VERIFY_TABLES


def test_commit_replaces_owned_entries_as_a_whole_and_drops_stale_ones(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "sim-000099.json").write_text("an earlier, longer run")
    (tmp_path / "changes.parquet").write_text("of an earlier run with a baseline")
    (tmp_path / "mine.txt").write_text("the user's own file")
    with output_dir(tmp_path, ["logs", "summary.json", "changes.parquet"]) as stage:
        assert stage is not None
        (stage / "logs").mkdir()
        (stage / "logs" / "sim-000000.json").write_text("new")
        (stage / "summary.json").write_text("new")
        assert not (tmp_path / "summary.json").exists()  # nothing is in place before the end
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["sim-000000.json"]
    assert (tmp_path / "summary.json").read_text() == "new"
    assert not (tmp_path / "changes.parquet").exists()
    assert (tmp_path / "mine.txt").exists()
    assert not [p for p in tmp_path.rglob(".*")]


def test_an_entry_a_run_would_replace_must_be_of_an_earlier_run_of_the_same_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # the user's own logs folder, and the plugin file the run loads from it: never replaced
    mine = Path("mine")
    (mine / "logs").mkdir(parents=True)
    shutil.copy(SMALL, mine / "logs" / SMALL.name)
    plugin = Path(__file__).resolve().parent.parent / "examples" / "plugin.py"
    shutil.copy(plugin, mine / "logs" / "plugin.py")
    res = cli(
        "simulate", "--games", "1", "--length", "tonpuu", "--players", "t,greedy", "--out", str(mine),
        "--plugin", f"t={mine / 'logs' / 'plugin.py'}:Tsumogiri",
    )  # fmt: skip
    assert "'mine/logs' was not written by this command (no 'summary.json' beside it)" in error_of(res)
    assert sorted(p.name for p in (mine / "logs").iterdir()) == sorted([SMALL.name, "plugin.py"])
    # a simulation's folder: replay --out there would replace its games.parquet; verify adds its own
    sim = Path("sim")
    assert cli("simulate", "--games", "1", "--length", "tonpuu", "--out", str(sim)).exit_code == 0
    before = (sim / "games.parquet").read_bytes()
    res = cli("replay", str(sim / "logs"), "--policy", "greedy", "--out", str(sim))
    assert "'sim/games.parquet' was not written by this command (no 'replay.json' beside it)" in error_of(res)
    assert (sim / "games.parquet").read_bytes() == before
    assert cli("verify", str(sim / "logs"), "--out", str(sim)).exit_code == 0
    # the same command again replaces its own entries (its mark is there)
    assert cli("simulate", "--games", "2", "--length", "tonpuu", "--out", str(sim)).exit_code == 0
    assert cli("verify", str(sim / "logs"), "--out", str(sim)).exit_code == 0
    assert sorted(p.name for p in sim.iterdir()) == sorted(
        ["logs", "summary.json", "rounds.parquet", "games.parquet", *VERIFY_TABLES]
    )
    # a parted simulation (--resume): its records are not another command's to remove or pass by
    parted = Path("parted")
    assert (
        cli("simulate", "--games", "1", "--length", "tonpuu", "--out", str(parted), "--resume").exit_code == 0
    )
    kept = sorted(p.name for p in parted.iterdir())
    for args in (["replay", str(parted / "logs"), "--policy", "greedy"], ["verify", str(parted / "logs")]):
        assert "(a parted run of another command)" in error_of(cli(*args, "--out", str(parted))), args
    assert sorted(p.name for p in parted.iterdir()) == kept
    assert (
        cli("simulate", "--games", "1", "--length", "tonpuu", "--out", str(parted)).exit_code == 0
    )  # its own
    # a library caller that names no mark keeps the old behaviour (see the test below)
    with output_dir(mine, ["logs"]) as stage:
        assert stage is not None


def test_resume_never_empties_a_folder_it_did_not_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With --resume the tables' folders, the records and a simulation's logs are written in place,
    # and were passed by the check: a parted run then removed every file there it did not keep
    monkeypatch.chdir(tmp_path)
    mine = Path("mine")
    (mine / "logs").mkdir(parents=True)
    (mine / "logs" / "precious.json").write_text("mine")
    for args in (
        ["simulate", "--games", "1", "--length", "tonpuu"],
        ["simulate", "--game", "hk", "--games", "1"],
    ):
        res = cli(*args, "--out", str(mine), "--resume")
        assert "'mine/logs' was not written by this command (no 'summary.json' beside it)" in error_of(res)
    (mine / "logs" / "precious.json").unlink()
    (mine / "decisions").mkdir()
    (mine / "decisions" / "precious.parquet").write_text("mine")
    res = cli("replay", str(SMALL), "--policy", "greedy", "--out", str(mine), "--resume")
    assert "'mine/decisions' was not written by this command (no 'replay.json' beside it)" in error_of(res)
    assert (mine / "decisions" / "precious.parquet").read_text() == "mine"
    # a parted simulation stopped midway (no dataset.json yet): verify --resume --out there removed
    # its records, and the simulation could be finished no more
    sim = Path("sim")
    assert cli("simulate", "--games", "2", "--length", "tonpuu", "--out", str(sim), "--resume").exit_code == 0
    (sim / "dataset.json").unlink()
    (sim / "summary.json").unlink()
    records = sorted((sim / "_manifests").iterdir())
    res = cli("verify", str(sim / "logs"), "--out", str(sim), "--resume")
    assert "'sim/_manifests' was not written by this command (a parted run of another command)" in error_of(
        res
    )
    assert sorted((sim / "_manifests").iterdir()) == records
    # its own: a run stopped before its first task's record (empty records, its first logs) goes on
    shutil.rmtree(sim / "_manifests")
    (sim / "_manifests").mkdir()
    res = cli("simulate", "--games", "2", "--length", "tonpuu", "--out", str(sim), "--resume")
    assert res.exit_code == 0, res.output
    assert len(list((sim / "logs").iterdir())) == 4


def test_a_failed_run_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "summary.json").write_text("old")
    with pytest.raises(RuntimeError), output_dir(tmp_path, ["summary.json"]) as stage:
        (stage / "summary.json").write_text("half")
        raise RuntimeError("the work failed")
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]
    assert (tmp_path / "summary.json").read_text() == "old"


def test_a_failed_run_removes_the_empty_folder_it_made_and_only_that(tmp_path: Path) -> None:
    made = tmp_path / "new" / "out"
    with pytest.raises(RuntimeError), output_dir(made, ["summary.json"]):
        raise RuntimeError("the cluster could not be joined")
    assert not made.exists() and (tmp_path / "new").is_dir()  # a parent it made for the folder stays
    there = tmp_path / "there"
    there.mkdir()
    with pytest.raises(RuntimeError), output_dir(there, ["summary.json"]):
        raise RuntimeError("the work failed")
    assert there.is_dir() and not list(there.iterdir())


def test_leftovers_of_a_killed_run_are_removed_by_the_next(tmp_path: Path) -> None:
    (tmp_path / ".verify-parts-abc").mkdir()
    (tmp_path / ".verify.parquet.abc.tmp").write_text("half")
    (tmp_path / ".mjcli-stage-abc").mkdir()
    (tmp_path / ".keep-me").write_text("not ours")
    res = cli("verify", str(SMALL), "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [".keep-me", *VERIFY_TABLES]


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_output_files_respect_the_umask(tmp_path: Path, source: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        assert cli("verify", str(SMALL), "--out", str(tmp_path / "v")).exit_code == 0
        assert cli("convert", str(source), "--to", "mjai", "-o", str(tmp_path / "c.mjai")).exit_code == 0
    finally:
        os.umask(old)
    for f in (tmp_path / "v" / "verify.parquet", tmp_path / "c.mjai"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o666 & ~mask, f


def test_claim_file_is_a_library_call_too(tmp_path: Path, source: Path) -> None:
    assert claim_file(tmp_path / "new" / "x.json", [source]) == tmp_path / "new" / "x.json"
    with pytest.raises(UsageError, match="would overwrite the input"):
        claim_file(source, [source])


def test_an_output_is_checked_against_every_input_once(tmp_path: Path) -> None:
    from mjcli.outpaths import _InputIndex

    logs = tmp_path / "logs"
    (logs / "deep").mkdir(parents=True)
    first, second = logs / "deep" / "a.mjlog", logs / "b.mjlog"
    first.write_text("a")
    second.write_text("b")
    (tmp_path / "hard.mjlog").hardlink_to(second)
    index = _InputIndex([second, first])
    # an output that is an input (by any spelling or link), or a folder an input lies in
    assert index.clash(logs / "." / "b.mjlog") == second
    assert index.clash(tmp_path / "hard.mjlog") == second
    assert index.clash(logs / "deep") == first
    assert index.clash(logs) == second  # both lie in it: the first given is named
    assert index.clash(tmp_path / "out.parquet") is None
    assert index.clash(logs / "deep" / "new.parquet") is None
