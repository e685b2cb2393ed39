import subprocess
import sys

import pytest

from gameproof import __version__
from gameproof.cli import main


def test_version(capsys):
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code == 0
    assert __version__ in capsys.readouterr().out


def test_unknown_command_is_one_line_exit_2(capsys):
    assert main(["no-such-command"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice" in err


def test_console_script_runs_as_module():
    done = subprocess.run([sys.executable, "-m", "gameproof", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "othello" in done.stdout


def test_the_program_collects_no_garbage_while_it_starts_then_collects_what_is_new():
    script = """
import gc, time
from gameproof import cli
cli.STARTUP_SECONDS = 0.2
def command():
    starting = gc.isenabled()
    time.sleep(1.0)
    print(starting, gc.isenabled(), gc.get_freeze_count() > 0)
    return 3
cli.main = command
cli.run_as_program()
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.split()) == (3, ["False", "True", "True"])


def test_a_child_the_program_forks_while_it_starts_collects_garbage():
    """The timer that ends the start-up's pause does not run in a forked child (threads are not forked)."""
    script = """
import gc, os
from gameproof import cli
cli.STARTUP_SECONDS = 60
def command():
    pid = os.fork()
    if pid == 0:
        print(gc.isenabled(), flush=True)
        os._exit(0)
    os.waitpid(pid, 0)
    print(gc.isenabled(), flush=True)
    return 0
cli.main = command
cli.run_as_program()
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.split()) == (0, ["True", "False"])


def test_the_program_ended_with_a_pool_open_says_nothing_of_its_semaphores(tmp_path):
    """An interrupted command that ends at once leaves its worker pool's semaphores to multiprocessing's resource
    tracker, which removes them without a warning on stderr."""
    script = tmp_path / "ends_with_a_pool_open.py"
    script.write_text("""
import os, multiprocessing
from gameproof import cli
def command():
    pool = multiprocessing.get_context("spawn").Pool(2)
    pool.apply(abs, (-1,))
    os._exit(130)
if __name__ == "__main__":
    cli.main = command
    cli.run_as_program()
""")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, "")


def test_demo_runs_every_showcase(capsys):
    from gameproof.commands.demo import SHOWCASE

    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "212,258,216" in out  # perft 11
    for step in SHOWCASE:
        assert " ".join(step.argv) in out.replace("\n", "")
    assert "33 legal moves" in out and "unique" in out and "loss" in out


def test_the_quick_demo_leaves_out_the_long_steps(capsys):
    from gameproof.commands.demo import QUICK_PERFT_DEPTH, SHOWCASE

    assert main(["demo", "--quick"]) == 0
    out = capsys.readouterr().out.replace("\n", "")
    assert "390,216" in out and "3,005,288" not in out  # perft 8, not 9
    for step in SHOWCASE:
        assert (" ".join(step.argv) in out) is step.quick
    assert QUICK_PERFT_DEPTH < 9 and not all(step.quick for step in SHOWCASE)


@pytest.mark.parametrize("argv, said", [
    (["solve", "mnk:3,3,3", "--nosuch"], "unrecognized arguments: --nosuch (see `gameproof solve --help`)"),
    (["tui", "connect4:5,4", "--nosuch"], "unrecognized arguments: --nosuch (see `gameproof tui game --help`)"),
    (["sudoku", "solve", "." * 16, "extra"], "unrecognized arguments: extra (see `gameproof sudoku solve --help`)"),
    (["sudoku", "solve"], "the following arguments are required: PUZZLE (see `gameproof sudoku solve --help`)"),
    (["mnk", "solve", "--rows", "3"], "required: --cols, --k (see `gameproof mnk solve --help`)"),
    (["solve", "mnk:3,3,3", "--engine", "x"], "invalid choice: 'x' (choose from 'dfpn', 'alphabeta') (see `gameproof "
                                              "solve --help`)"),
    (["perft", "mnk:3,3,3", "x"], "argument DEPTH: invalid int value: 'x' (see `gameproof perft --help`)"),
    (["solve", "mnk:3,3,3", "--tt-mb", "0", "--quiet"], "--tt-mb must be a positive number of MiB, got 0.0 (see "
                                                        "`gameproof solve --help`)"),
    (["sudoku", "solve", "." * 16, "--cap", "1"], "--cap must be at least 2 (uniqueness needs a search for a second "
                                                  "solution) (see `gameproof sudoku solve --help`)"),
    (["games", "--check", "--games", "0"], "--games must be 1..1000000, not 0 (see `gameproof games --help`)"),
])
def test_usage_errors_point_to_the_subcommands_help(capsys, argv, said):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gameproof: error: ") and err.endswith(f"{said}\n") and err.count("\n") == 1


def test_other_bad_input_does_not_point_to_help(capsys):
    assert main(["games", "nosuch"]) == 2
    assert "--help" not in capsys.readouterr().err
