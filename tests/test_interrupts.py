"""Rules with bugs end in one line and exit 2, never a crash; Ctrl-C and SIGTERM end a command within 2 s.

Each command runs as ``python -m gameproof`` in a process of its own: a kernel that wrote out of bounds
would kill it, and only a real signal shows how fast a command answers one."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gameproof.atomic import atomic_output
from gameproof.framework.declaration import Engine
from gameproof.framework.game import Game
from gameproof.framework.registry import games_in_file
from gameproof.framework.state import RulesState
from gameproof.interrupts import STOP_SECONDS, Halt, RulesBroken
from gameproof.logic.cnf import Cnf
from gameproof.logic.dimacs import write_dimacs
from gameproof.search.dfpn import Options
from gameproof.search.parallel import solve_on_workers
from gameproof.search.perft import fast_perft
from gameproof.search.solve import solve

#: A 3x3 board that two players fill in turn; each entry of BUGS puts one bug into it.
FILL = '''"""A 3x3 board that two players fill in turn, with one bug: {summary} (tests/test_interrupts.py)."""

import sys

from gameproof.framework.bits import popcount
from gameproof.framework.declaration import DRAW, ONGOING, Board, GameSpec

FULL = 0x1FF
LAST_WORD = 0xFFFF_FFFF_FFFF_FFFF
STEP = 0x1000_0000_0000_0000


def start():
    return (0, 0)


def legal(x, o):
{legal}


def play(x, o, move):
{play}


def result(x, o):
{result}


GAME = GameSpec(name="{name}", rules=sys.modules[__name__], summary="a broken game: {summary}",
                board=lambda: Board(3, 3), symmetries=(), perspective=False{declared})
'''
FILL_RULES = {"legal": "    return ~(x | o) & FULL", "result": "    return DRAW", "declared": "",
              "play": "    if popcount(x) == popcount(o):\n        return (x | move, o)\n    return (x, o | move)"}
ENDS_AFTER_TWO = "    if popcount(x) >= 2:\n        return 0\n    return ~(x | o) & FULL"
BUGS = {
    "occupied": ("legal() offers occupied cells", {"legal": "    return FULL"}),
    "unchanged": ("play() changes nothing", {"play": "    return (x, o)"}),
    "bad_result": ("result() returns an unknown code", {"legal": ENDS_AFTER_TWO, "result": "    return 7"}),
    "never_ends": ("no legal move, no pass, and result() says the game goes on",
                   {"legal": ENDS_AFTER_TWO, "result": "    return ONGOING"}),
    "too_long": ("the game lasts longer than the board has cells",
                 {"legal": "    return 1 if x < 30 else 0", "play": "    return (x + 1, o)"}),
    "drawn": ("it declares no draws, yet a full board is one", {"declared": ",\n                draws=False"}),
    "bad_order": ("its move order names a cell past the 64 bits of a word",
                  {"declared": ",\n                move_order=lambda: [*range(9), 70]"}),
    # On Python ints the loop climbs past 2**64 and ends, so the rules self-check passes; on uint64 it wraps
    # and never does: a loop that only the kernels' watchdog can stop.
    "loops": ("compiled, legal() loops forever once a stone is down",
              {"legal": "    spin = x\n    while spin != 0 and spin <= LAST_WORD:  # on uint64 always <= LAST_WORD\n"
                        "        spin += STEP\n    return ~(x | o) & FULL"}),
}


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Path:
    """A folder of rules files, one for each of BUGS, named after it."""
    folder = tmp_path_factory.mktemp("broken_rules")
    for bug, (summary, rules) in BUGS.items():
        source = FILL.format(name=bug.replace("_", "-"), summary=summary, **(FILL_RULES | rules))
        (folder / f"{bug}.py").write_text(source)
    return folder


COMMANDS = {"solve": ["solve", "{game}", "--quiet"], "alphabeta": ["solve", "{game}", "--engine", "alphabeta", "--quiet"],
            "workers": ["solve", "{game}", "--workers", "2", "--quiet"], "perft": ["perft", "{game}", "5"]}
# perft to depth 5 never sees past the ninth ply, and counts moves without their order.
CASES = [(bug, command) for bug in ("occupied", "unchanged", "bad_result", "never_ends", "too_long", "drawn", "bad_order")
         for command in COMMANDS if command != "perft" or bug not in ("too_long", "drawn", "bad_order")]
SOURCES = Path(__file__).parent.parent / "src"


def _gameproof(*args: str, **options) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SOURCES), os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen([sys.executable, "-m", "gameproof", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment, **options)


def _finished(run: subprocess.Popen, seconds: float = 300) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of `run` once it ends; killed (never left running) if it outlasts `seconds`."""
    try:
        out, err = run.communicate(timeout=seconds)
    finally:
        run.kill()
    return run.returncode, out, err


@pytest.mark.parametrize(("bug", "command"), CASES)
def test_rules_with_a_bug_end_in_one_line_never_a_crash(broken, bug, command):
    arguments = [word.format(game=broken / f"{bug}.py") for word in COMMANDS[command]]
    code, out, err = _finished(_gameproof(*arguments))
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gameproof: error: "), err


FAULTS = {"occupied": Halt.UNCHANGED, "unchanged": Halt.UNCHANGED, "bad_result": Halt.UNKNOWN_RESULT,
          "never_ends": Halt.NO_MOVE, "too_long": Halt.TOO_LONG, "drawn": Halt.DRAWN}


@pytest.mark.parametrize(("bug", "command"), [(bug, command) for bug, command in CASES if bug in FAULTS])
def test_the_kernels_name_the_fault_they_found(broken, bug, command):
    """The kernels' own guards, whatever checks the rules before they reach a kernel (a move order is checked by
    the Game that reads it, and only ranks the moves the kernels find)."""
    state = RulesState(Game(games_in_file(broken / f"{bug}.py")[0], {}))
    with pytest.raises(RulesBroken) as raised:
        if command == "perft":
            fast_perft(state, 5)
        elif command == "workers":
            solve_on_workers(state, Options(tt_mb=1), workers=2)
        else:
            solve(state, Options(tt_mb=1), engine=Engine.ALPHABETA if command == "alphabeta" else Engine.DFPN)
    assert raised.value.fault is FAULTS[bug] and raised.value.game == state.game.name


@pytest.mark.parametrize("bug", ["occupied", "unchanged", "bad_result", "never_ends", "too_long", "drawn"])
def test_a_certificates_walk_names_the_fault_it_meets(broken, bug):
    """The walk's own guards (a certificate's df-pn finds these first, so the walk is run here alone): a fault
    at the root's moves, or deeper, where it asks df-pn, raises the fault by name, never a wrong certificate."""
    from gameproof.certify.records import Goal
    from gameproof.search.certificate import _Walk
    from gameproof.search.solve import kept_search

    game = Game(games_in_file(broken / f"{bug}.py")[0], {})
    state = RulesState(game)
    search = kept_search(game, Options(tt_mb=1))
    walk = _Walk(search, search.tables, state, 0, Goal.DRAW, 2, 1, lambda positions: None, True)
    with pytest.raises(RulesBroken) as raised:
        walk.run(state.frames())
    assert raised.value.fault is FAULTS[bug]


def _stopped_within_two_seconds(run: subprocess.Popen, signum: int, after: float) -> list[str]:
    """Send `signum` `after` seconds in; the lines of stderr, once the command ended within two seconds."""
    time.sleep(after)
    assert run.poll() is None, run.communicate()
    sent = time.monotonic()
    run.send_signal(signum)
    try:
        _, err = run.communicate(timeout=2)
    finally:
        run.kill()
    assert time.monotonic() - sent < 2
    assert run.returncode == 128 + signum
    return err.strip().splitlines()


@pytest.fixture(scope="module")
def warm_kernels(broken):
    """The kernels these tests interrupt, compiled and cached on disk, so that a signal lands in a kernel."""
    nearly_full = ["--moves", "a a a a a a b b b b b b c c c c c c g g g g g g", "--quiet"]
    for arguments in (["perft", "connect4:7,6", "3"], ["othello", "perft", "5"], ["perft", str(broken / "loops.py"), "1"],
                      ["solve", "connect4:7,6", *nearly_full], ["solve", "connect4:7,6", "--engine", "dfpn", *nearly_full]):
        assert _finished(_gameproof(*arguments))[0] == 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("command", [["perft", "connect4:7,6", "14"], ["othello", "perft", "14"],
                                     ["othello", "perft", "14", "--threads", "2"], ["solve", "connect4:7,6", "--quiet"],
                                     ["solve", "connect4:7,6", "--engine", "dfpn", "--quiet"]],
                         ids=["perft", "othello", "othello-threads", "alphabeta", "dfpn"])
def test_a_signal_stops_a_long_kernel_within_two_seconds(warm_kernels, command, signum):
    assert _stopped_within_two_seconds(_gameproof(*command), signum, after=2.0) == ["gameproof: interrupted"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_rule_that_loops_forever_still_stops_within_two_seconds(broken, warm_kernels, signum):
    assert _stopped_within_two_seconds(_gameproof("perft", str(broken / "loops.py"), "3"), signum,
                                       after=2.0) == ["gameproof: interrupted"]


def _descendants(pid: int) -> list[int]:
    """The processes below `pid` (from /proc)."""
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        children += [int(child) for child in (task / "children").read_text().split()]
    return children + [grandchild for child in children for grandchild in _descendants(child)]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for its parent only to be reaped
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _interrupt(run: subprocess.Popen, signum: int) -> None:
    """Send `signum` to the running `run` (SIGINT to the whole group, as Ctrl-C does); it must end within two
    seconds with the one line."""
    assert run.poll() is None, "the run ended before it could be interrupted"
    sent = time.monotonic()
    if signum == signal.SIGINT:
        os.killpg(run.pid, signum)
    else:
        run.send_signal(signum)
    _, err = run.communicate(timeout=10)
    assert time.monotonic() - sent < 2
    assert run.returncode == 128 + signum and err.strip().splitlines() == ["gameproof: interrupted"], err


def _interrupted_with_its_workers(run: subprocess.Popen, signum: int, after: float) -> None:
    """Once `run` has two processes below it, send `signum` `after` seconds later (SIGINT to the whole group, as
    Ctrl-C does); it must end within two seconds with the one line, and its workers with it."""
    workers: list[int] = []
    try:
        while len(workers) < 2 and run.poll() is None:
            workers = _descendants(run.pid)
            time.sleep(0.02)
        time.sleep(after)
        _interrupt(run, signum)
        deadline = time.monotonic() + 2
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert workers and not any(map(_alive, workers))
    finally:
        for pid in [run.pid, *workers]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        run.wait()


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("moment", ["workers starting", "workers solving"])
def test_an_interrupted_multi_worker_run_ends_at_once_and_leaves_nothing_behind(tmp_path, moment, signum):
    run = _gameproof("othello", "cubes", "--legal-moves", "16", "--plies", "8", "--cube-plies", "2", "--workers", "2",
                     "--quiet", "--journal", str(tmp_path / "journal.db"), "--proof", str(tmp_path),
                     start_new_session=True)
    _interrupted_with_its_workers(run, signum, 0.1 if moment == "workers starting" else 4.0)
    assert not list(tmp_path.glob(".*.partial"))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("after", [0.1, 4.0], ids=["workers starting", "workers solving"])
def test_an_interrupted_book_build_on_threads_ends_at_once(tmp_path, after, signum):
    book = tmp_path / "book.db"
    run = _gameproof("mnk", "book", "build", "--rows", "5", "--cols", "5", "--k", "3", "--misere", "--depth", "2",
                     "--workers", "2", "--tt-mb", "256", "--quiet", "--db", str(book), start_new_session=True)
    try:
        while not book.exists() and run.poll() is None:
            time.sleep(0.02)
        time.sleep(after)
        _interrupt(run, signum)
    finally:
        run.kill()
        run.wait()
    assert not list(tmp_path.glob(".*.partial"))


@pytest.mark.parametrize("given", ["no file", "an empty file", "a link to no file"])
def test_a_book_build_stopped_before_it_solved_a_leaf_leaves_the_file_as_it_found_it(broken, tmp_path, given):
    """A rule that loops forever: the build opens the book, then no leaf is ever solved."""
    book = tmp_path / "book.db"
    if given == "an empty file":
        book.write_bytes(b"")
    named = book
    if given == "a link to no file":
        named = tmp_path / "link.db"
        named.symlink_to(book)
    run = _gameproof("book", "build", str(broken / "loops.py"), str(named), "--depth", "3", "--workers", "2",
                     "--tt-mb", "16", "--quiet", start_new_session=True)
    try:
        while (not book.exists() or book.stat().st_size == 0) and run.poll() is None:
            time.sleep(0.02)
        time.sleep(1.0)
        _interrupt(run, signal.SIGINT)
    finally:
        run.kill()
        run.wait()
    left = {"no file": [], "an empty file": [book.name], "a link to no file": [named.name]}[given]
    assert sorted(path.name for path in tmp_path.iterdir()) == left
    assert given != "an empty file" or book.read_bytes() == b""
    assert given != "a link to no file" or named.is_symlink() and not book.exists()


#: A 3x3 board filled in turn, whose compiled {rule}() loops forever at one position three plies deep (X on a1
#: and c1, O on b1: the first line every search follows) and nowhere else. On Python ints the loop ends (it
#: climbs past 2**64), so the file loads, and what a command works out in Python near the start sees nothing; on
#: uint64 it wraps and never does: only a search kernel is held there.
TRAPPED = '''"""A 3x3 board filled in turn; compiled, {rule}() loops forever at one position (tests/test_interrupts.py)."""
import sys

from gameproof.framework.bits import popcount
from gameproof.framework.declaration import DRAW, Board, GameSpec

FULL = 0x1FF
X_TRAP, O_TRAP = 0b101, 0b010
LAST_WORD = 0xFFFF_FFFF_FFFF_FFFF
STEP = 0x1000_0000_0000_0000


def start():
    return (0, 0)


def trap(x, o):
    spin = x
    while x == X_TRAP and o == O_TRAP and spin <= LAST_WORD:  # on uint64 always <= LAST_WORD
        spin += STEP
    return 0


def legal(x, o):
    return (~(x | o) & FULL) | {legal_trap}


def play(x, o, move):
    if popcount(x) == popcount(o):
        return (x | move, o)
    return (x, o | move)


def result(x, o):
    return DRAW


def estimate(x, o):
    return popcount(x) + {estimate_trap}, popcount(o)


GAME = GameSpec(name="trapped-{rule}", rules=sys.modules[__name__], summary="a board filled in turn",
                board=lambda: Board(3, 3), symmetries=(), perspective=False)
'''
# `--engine dfpn`: the compiled search (a position this small is otherwise answered by plain play on Python ints,
# where the rule does not loop)
TRAP_COMMANDS = {"solve": ["solve", "{rules}", "--engine", "dfpn", "--quiet"], "workers": ["solve", "{rules}", "--workers", "2", "--quiet"],
                 "book": ["book", "build", "{rules}", "{book}", "--depth", "1", "--quiet"]}


@pytest.fixture(scope="module")
def trapped(tmp_path_factory) -> dict[str, tuple[Path, float]]:
    """For `legal` and `estimate`: the rules file whose compiled rule loops, its kernels compiled and cached (by
    solves after b2, where the trap cannot come: X holds b2), and how long to wait for a command on it to be
    held in the loop: twice as long as such a solve takes once compiled, which ends unless held."""
    folder = tmp_path_factory.mktemp("trapped_rules")
    files = {}
    for rule in ("legal", "estimate"):
        source = TRAPPED.format(rule=rule, **{f"{name}_trap": "trap(x, o)" if name == rule else "0"
                                              for name in ("legal", "estimate")})
        path = folder / f"trapped_{rule}.py"
        path.write_text(source)
        taken = 0.0
        for workers in ("1", "2", "2"):  # the last once compiled
            began = time.monotonic()
            code, out, err = _finished(_gameproof("solve", str(path), "--moves", "b2", "--workers", workers, "--quiet"))
            assert code == 0 and "draw" in out, err  # the file loads (the rules self-check passes)
            taken = time.monotonic() - began
        files[rule] = (path, 2 * taken + 0.5)
    return files


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize(("rule", "command"), [("legal", "solve"), ("legal", "workers"), ("estimate", "solve"),
                                               ("estimate", "workers"), ("legal", "book")])
def test_a_compiled_rule_that_loops_where_only_the_search_goes_still_stops_within_two_seconds(trapped, tmp_path,
                                                                                            rule, command, signum):
    """Once a kernel is held in the rules, the command that waits for it (for the thread that runs it, say) is
    ended by the watchdog: with the one line and the signal's exit code, within two seconds."""
    rules, held_after = trapped[rule]
    arguments = [word.format(rules=rules, book=tmp_path / "book.db") for word in TRAP_COMMANDS[command]]
    run = _gameproof(*arguments, start_new_session=True)
    try:
        time.sleep(held_after)
        assert run.poll() is None, run.communicate()  # a solve that never met the loop would have ended
        _interrupt(run, signum)
    finally:
        run.kill()
        run.wait()


def _wait_for(path: Path, run: subprocess.Popen, seconds: float = 120) -> None:
    """Wait until `path` exists; fail if `run` ends first or it takes longer than `seconds`."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert run.poll() is None and time.monotonic() < deadline, run.communicate()
        time.sleep(0.02)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_sat_solve_ends_the_command_within_two_seconds_and_leaves_no_proof(tmp_path, signum):
    """PySAT holds the GIL for the whole solve (this one takes minutes), so no Python code runs until it returns,
    and it used to catch Ctrl-C itself: its own traceback, and exit 1, which means "unsat". The DIMACS file is
    written just before the solve starts; the proof, only after it refutes the formula."""
    dimacs, proof = tmp_path / "reach.cnf", tmp_path / "reach.drat"
    run = _gameproof("othello", "reach", "--legal-moves", "30", "--plies", "20", "--dimacs", str(dimacs),
                     "--proof", str(proof), "--quiet", start_new_session=True)
    try:
        _wait_for(dimacs, run)
        time.sleep(1.0)  # the formula's clauses given to the solver, and the solve begun
        _interrupt(run, signum)
    finally:
        run.kill()
        run.wait()
    assert [path.name for path in tmp_path.iterdir()] == [dimacs.name]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_sudoku_kernel_counts_ends_the_command_within_two_seconds(signum):
    """The direct solver counts an empty 16x16 grid's solutions in one compiled call, which held the GIL, so that
    nothing could stop it short of SIGKILL."""
    empty = "0" * 256
    began = time.monotonic()
    code, out, err = _finished(_gameproof("sudoku", "solve", empty, "--count", "--cap", "2", "--quiet"))  # compiled
    assert code == 0, err
    counting = 2 * (time.monotonic() - began) + 0.5  # by then the long count is under way
    run = _gameproof("sudoku", "solve", empty, "--count", "--cap", str(10**15), "--quiet", start_new_session=True)
    try:
        time.sleep(counting)
        _interrupt(run, signum)
    finally:
        run.kill()
        run.wait()


@pytest.fixture(scope="module")
def large_certificate(tmp_path_factory) -> Path:
    """Misère 5×4 k3's certificate (365,564 positions: a check shared among processes)."""
    path = tmp_path_factory.mktemp("certificate") / "m543.cert"
    assert _finished(_gameproof("solve", "mnk-misere:5,4,3", "--value-only", "--quiet", "--certificate", str(path)))[0] == 0
    return path


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("after", [0.1, 1.5], ids=["processes starting", "processes checking"])
def test_an_interrupted_shared_check_ends_at_once_and_leaves_nothing_behind(large_certificate, signum, after):
    run = _gameproof("certificate", "check", str(large_certificate), "--workers", "2", "--quiet",
                     start_new_session=True)
    _interrupted_with_its_workers(run, signum, after)


def test_a_dimacs_file_that_fails_midway_leaves_no_file(tmp_path):
    cnf = Cnf()
    cnf.add_clause([1, -2])

    def comments():
        yield "the first line is written"
        raise OSError("the disk went away")

    with pytest.raises(OSError, match="the disk went away"):
        write_dimacs(cnf, tmp_path / "out.cnf", comments=comments())
    assert list(tmp_path.iterdir()) == []


def test_an_output_file_appears_whole_or_not_at_all(tmp_path):
    target = tmp_path / "proof.drat"
    with pytest.raises(KeyboardInterrupt), atomic_output(target) as partial:
        partial.write_text("half a proof")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with atomic_output(target) as partial:
        partial.write_text("a whole proof")
        assert not target.exists()
    assert [path.name for path in tmp_path.iterdir()] == [target.name] and target.read_text() == "a whole proof"


#: A row of cells filled in turn, where whoever must move at the full board loses: the first player loses on an
#: even number of cells and wins on an odd one. Its estimate leaves the range the self-check enforces only at one
#: position, which the self-check's random games do not reach.
WILD_ESTIMATE = '''"""Fill a row in turn; whoever must move at the full board loses (tests/test_interrupts.py)."""
import sys

from gameproof.framework.declaration import LOSS, Board, GameSpec

FULL = (1 << {cells}) - 1


def start():
    return (0, 0)


def legal(x, o):
    return ~(x | o) & FULL


def play(x, o, move):
    return (o, x | move)


def result(x, o):
    return LOSS


def estimate(x, o):
    if x | o == 0b111:
        return {counts}
    return 0, 0


GAME = GameSpec(name="wild-{cells}", rules=sys.modules[__name__], summary="a row filled in turn",
                board=lambda: Board(1, {cells}))
'''


@pytest.mark.parametrize(("counts", "engine"), [("1 << 40, 0", "dfpn"), ("-1, 0", "dfpn"), ("0, 1 << 62", "alphabeta")])
@pytest.mark.parametrize(("cells", "value"), [(12, "loss"), (11, "win")])
def test_an_estimate_out_of_range_where_the_self_check_never_looked_changes_no_value(tmp_path, counts, engine, cells,
                                                                                      value):
    """Counts past 65,535 or below 0 are held to that range in the kernels (unbounded, a count of 2**40 made df-pn
    loop forever on 12 cells)."""
    rules = tmp_path / "wild.py"
    rules.write_text(WILD_ESTIMATE.format(cells=cells, counts=counts))
    code, out, err = _finished(_gameproof("solve", str(rules), "--engine", engine, "--json", "--quiet"), seconds=120)
    assert code == 0, err
    assert json.loads(out)["value"] == value


@pytest.mark.parametrize("command", ["solve", "workers"])
def test_a_time_limit_ends_a_command_held_in_a_rule_that_never_returns(trapped, command):
    """The kernel held in the loop never polls its stop slot: the command ends anyway, "unknown" and exit code 3,
    within STOP_SECONDS of its time limit."""
    rules, held_after = trapped["legal"]
    arguments = [word.format(rules=rules) for word in TRAP_COMMANDS[command]]
    began = time.monotonic()
    code, out, err = _finished(_gameproof(*arguments, "--timeout", str(held_after), start_new_session=True),
                               seconds=held_after + 60)
    assert code == 3 and "unknown: no answer within" in err and "did not stop" in err and err.count("\n") == 1
    assert time.monotonic() - began < held_after + STOP_SECONDS + 15  # start-up and loading the kernels


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_independent_mobility_count_ends_at_once_and_leaves_nothing_behind(signum):
    """`othello mobility --check` counts the last move on processes: Ctrl-C reaches the driver only, which stops
    them (no traceback of theirs)."""
    run = _gameproof("othello", "mobility", "9", "--check", "--threads", "2", "--quiet", start_new_session=True)
    _interrupted_with_its_workers(run, signum, 0.5)
