"""The job runner: results journalled, resumed, retried after crashes, the same on every backend."""

import os
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import job_tasks  # noqa: E402

from gameproof.errors import BadInput  # noqa: E402
from gameproof.search.jobs import Job, JobFailed, SqliteJournal, run_jobs, task_name  # noqa: E402


def _jobs(count: int, **extra) -> list[Job]:
    return [Job(f"n{n}", {"n": n, **extra}) for n in range(count)]


def test_results_are_journalled_and_a_second_run_does_nothing(tmp_path):
    seen = []
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.square)) as journal:
        assert run_jobs(job_tasks.square, _jobs(5), journal, progress=lambda d, t, s: seen.append((d, t))) == 5
        assert journal.results() == {f"n{n}": n * n for n in range(5)}
        assert seen[0] == (0, 5) and seen[-1] == (5, 5)
        assert run_jobs(job_tasks.square, _jobs(7), journal) == 2
        assert len(journal.results()) == 7


def test_jobs_on_threads_run_in_this_process_over_one_table(tmp_path):
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.table_thread_and_pid)) as journal:
        assert run_jobs(job_tasks.table_thread_and_pid, _jobs(12), journal, workers=2, threads=True,
                        shared_table_mb=1) == 12
        results = journal.results().values()
        assert len(results) == 12 and len({table for table, _, _ in results}) == 1
        assert {pid for _, _, pid in results} == {os.getpid()}


@pytest.mark.parametrize("threads", [False, True])
def test_two_workers_give_the_same_results_on_processes_and_threads(tmp_path, threads):
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.square)) as journal:
        run_jobs(job_tasks.square, _jobs(12), journal, workers=2, threads=threads)
        assert journal.results() == {f"n{n}": n * n for n in range(12)}


def test_a_worker_that_dies_is_replaced_and_its_job_runs_again(tmp_path):
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.square_or_die_once)) as journal:
        run_jobs(job_tasks.square_or_die_once, _jobs(7, marks=str(tmp_path)), journal, workers=2, retries=3)
        assert journal.results() == {f"n{n}": n * n for n in range(7)}


def test_a_job_that_always_kills_its_worker_fails_the_run_by_name(tmp_path):
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.always_die)) as journal:
        with pytest.raises(JobFailed, match="n0"):
            run_jobs(job_tasks.always_die, _jobs(1), journal, workers=2, retries=1)


@pytest.mark.parametrize("workers, threads", [(1, False), (2, False), (2, True)])
def test_a_task_that_raises_names_its_job(tmp_path, workers, threads):
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.refuse)) as journal:
        with pytest.raises(JobFailed, match="job n1 failed: ValueError: no square for 1"):
            run_jobs(job_tasks.refuse, [Job("n1", {"n": 1})], journal, workers=workers,
                     threads=threads)


@pytest.mark.parametrize("workers, threads", [(1, False), (2, False), (2, True)])
def test_a_task_that_finds_bad_input_fails_the_run_with_its_line_alone(tmp_path, workers, threads):
    """Rules that break where only a job's search goes are bad input (exit 2, the line a solve gives), not a failed
    job named by its key; from a worker process too."""
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.break_the_rules)) as journal:
        with pytest.raises(BadInput) as raised:
            run_jobs(job_tasks.break_the_rules, [Job("n7", {"n": 7})], journal, workers=workers, threads=threads)
    assert not isinstance(raised.value, JobFailed) and "n7" not in str(raised.value)
    assert str(raised.value) == ("the rules of corner:4 broke an assumption: result() returned a code that is none of "
                                 "ONGOING, WIN, LOSS, DRAW, at depth 7")


def test_other_files_are_refused_and_left_unchanged(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a journal\n" * 10)
    other = tmp_path / "other.db"
    with SqliteJournal(other, task_name(job_tasks.refuse)):
        pass
    plain = tmp_path / "plain.db"
    sqlite3.connect(plain).execute("CREATE TABLE t (x)").connection.close()
    truncated = tmp_path / "truncated.db"
    with SqliteJournal(truncated, task_name(job_tasks.square)) as journal:
        run_jobs(job_tasks.square, _jobs(50), journal)
    truncated.write_bytes(truncated.read_bytes()[:3000])
    for path, message in ((text, "not a gameproof journal"), (other, "journal of"), (plain, "not a gameproof journal"),
                          (truncated, "journal|damaged"), (tmp_path, "not a file")):
        before = path.read_bytes() if path.is_file() else None
        with pytest.raises(BadInput, match=message):
            SqliteJournal(path, task_name(job_tasks.square))
        assert (path.read_bytes() if path.is_file() else None) == before


def test_ray_gives_the_same_results_and_retries_a_dead_worker(tmp_path, monkeypatch):
    from gameproof.search.jobs import Backend

    # Ray's workers import the task's module afresh: let them find it (and gameproof, as this process does).
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(Path(job_tasks.__file__).parent), *sys.path]))
    with SqliteJournal(tmp_path / "j.db", task_name(job_tasks.square_or_die_once)) as journal:
        run_jobs(job_tasks.square_or_die_once, _jobs(7, marks=str(tmp_path)), journal, backend=Backend.RAY,
                 workers=2, retries=3)
        assert journal.results() == {f"n{n}": n * n for n in range(7)}


def test_a_journal_whose_name_holds_uri_characters_resumes(tmp_path):
    path = tmp_path / "run?1#a.db"
    with SqliteJournal(path, task_name(job_tasks.square)) as journal:
        run_jobs(job_tasks.square, _jobs(3), journal)
    with SqliteJournal(path, task_name(job_tasks.square)) as journal:
        assert run_jobs(job_tasks.square, _jobs(3), journal) == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers follow their driver by prctl, on Linux")
def test_workers_die_with_a_driver_killed_by_sigkill(tmp_path):
    import signal
    import subprocess
    import time

    driver = subprocess.Popen([sys.executable, "-c", (
        "import sys; sys.path.insert(0, sys.argv[1]); import job_tasks\n"
        "from gameproof.search.jobs import Job, SqliteJournal, run_jobs, task_name\n"
        "jobs = [Job(f'n{n}', {'n': n, 'folder': sys.argv[2]}) for n in range(4)]\n"
        "with SqliteJournal(sys.argv[2] + '/j.db', task_name(job_tasks.report_and_sleep)) as journal:\n"
        "    run_jobs(job_tasks.report_and_sleep, jobs, journal, workers=2)\n"), str(Path(__file__).parent), str(tmp_path)])
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("*.pid"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [int(path.stem) for path in tmp_path.glob("*.pid")]
    assert len(workers) == 2
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
