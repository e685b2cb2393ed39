import subprocess
import sys

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


def test_demo_runs_every_showcase(capsys):
    from gameproof.commands.demo import SHOWCASE

    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "212,258,216" in out  # perft 11
    for title, argv in SHOWCASE:
        assert " ".join(argv) in out.replace("\n", "")
    assert "33 legal moves" in out and "unique" in out and "loss" in out
