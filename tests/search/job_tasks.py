"""Tasks for the job tests: importable by spawned workers (their folder is put on sys.path)."""

import os
from pathlib import Path


def square(n: int) -> int:
    return n * n


def square_or_die_once(n: int, marks: str, shared_table: str | None = None, table=None) -> int:
    """Kill the worker the first time job `n` runs (a mark file remembers it), then answer; attach the shared
    table first when one is given (it must be there, after a worker that had it died too). A worker's own
    `table` (on threads) is ignored."""
    if shared_table is not None:
        from gameproof.search.tt import SharedTable

        SharedTable.attach(shared_table)
    mark = Path(marks) / f"{n}.died"
    if n % 3 == 0 and not mark.exists():
        mark.write_text("")
        os._exit(9)
    return n * n


def always_die(n: int) -> int:
    os._exit(9)


def refuse(n: int) -> int:
    raise ValueError(f"no square for {n}")


def break_the_rules(n: int) -> int:
    """Find the rules broken, as a search kernel does (a BadInput that does not pickle as it is)."""
    from gameproof.interrupts import Halt, RulesBroken

    raise RulesBroken(Halt.UNKNOWN_RESULT, n, game="corner:4")


def report_and_sleep(n: int, folder: str) -> int:
    """Leave this worker's pid in `folder`, then work for a long time."""
    import time

    (Path(folder) / f"{os.getpid()}.pid").write_text("")
    time.sleep(120)
    return n


def table_and_pid(n: int, shared_table: str) -> list:
    """The shared table this job was given (attached, to show it is there) and the worker's pid."""
    from gameproof.search.tt import SharedTable

    SharedTable.attach(shared_table)
    return [shared_table, os.getpid()]


def table_thread_and_pid(n: int, table) -> list:
    """The identity of the table this job was given, the thread it ran on and its process."""
    import threading

    return [id(table.words), threading.get_ident(), os.getpid()]
