"""Jobs on a real Ray cluster of two nodes (`ray start --head`, `ray start --address`, token authentication),
joined by `--address`: the same answers as local workers (a book, cubes, a solve's questions), long-lived
workers, one table a machine."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from ray_cluster import Cluster, two_nodes  # noqa: E402

pytest.importorskip("ray")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the cluster is stopped by /proc")

GAMEPROOF = [sys.executable, "-m", "gameproof"]
BOOK = ["mnk", "book", "build", "--rows", "4", "--cols", "4", "--k", "3", "--misere", "--depth", "3", "--tt-mb", "16",
        "--quiet"]
CUBES = ["othello", "cubes", "--legal-moves", "13", "--plies", "6", "--cube-plies", "3", "--json", "--quiet"]


@pytest.fixture(scope="module")
def cluster():
    with two_nodes(pythonpath=[str(Path(__file__).parent)]) as started:
        yield started


def _gameproof(arguments: list[str], env: dict[str, str] | None = None, status: int = 0) -> str:
    ran = subprocess.run([*GAMEPROOF, *arguments], env=env, capture_output=True, text=True)
    assert ran.returncode == status, ran.stderr
    return ran.stdout


def _ray(cluster: Cluster) -> list[str]:
    return ["--backend", "ray", "--address", cluster.address]


def _rows(path: Path) -> list[tuple]:
    from gameproof.search.book import Book

    with Book(path) as book:
        return sorted((entry.key, entry.value, entry.moves, entry.plies, entry.method) for entry in book.entries())


def test_a_book_built_on_the_cluster_is_the_local_book_entry_by_entry(cluster, tmp_path):
    summary = json.loads(_gameproof([*BOOK, "--db", str(tmp_path / "ray.db"), *_ray(cluster), "--json"], cluster.env))
    _gameproof([*BOOK, "--db", str(tmp_path / "local.db"), "--workers", "2"])
    assert summary["solved"] == 219 and summary["entries"] == 256
    assert _rows(tmp_path / "ray.db") == _rows(tmp_path / "local.db")


def test_cube_and_conquer_on_the_cluster_gives_the_local_answer(cluster, tmp_path):
    unsat = 1
    on_ray = json.loads(_gameproof([*CUBES, "--journal", str(tmp_path / "ray.db"), *_ray(cluster)], cluster.env, unsat))
    local = json.loads(_gameproof([*CUBES, "--journal", str(tmp_path / "local.db")], status=unsat))
    assert on_ray["status"] == local["status"] == "unsat"
    assert (on_ray["cubes"], on_ray["splits"]) == (local["cubes"], local["splits"])


def test_a_tablebase_built_on_the_cluster_is_the_local_file_byte_for_byte(cluster, tmp_path):
    """Dodgem 4x4's forward and graph passes, a chunk of positions a job on the cluster's workers."""
    build = ["tablebase", "build", "dodgem:4"]
    summary = json.loads(_gameproof([*build, str(tmp_path / "ray.tb"), *_ray(cluster), "--json", "--quiet"], cluster.env))
    _gameproof([*build, str(tmp_path / "local.tb"), "--quiet"])
    assert summary["positions"] == 395_294 and summary["draw"] == 35_281
    assert (tmp_path / "ray.tb").read_bytes() == (tmp_path / "local.tb").read_bytes()


@pytest.mark.parametrize("game, engine", [("mnk-misere:4,4,3", "dfpn"), ("connect4:5,4", "alphabeta")])
def test_a_solve_on_the_cluster_gives_the_local_values(cluster, tmp_path, game, engine):
    from gameproof.certify.check import check_certificate

    solve = ["solve", game, "--workers", "2", "--tt-mb", "16", "--json", "--quiet"]
    certificate = ["--certificate", str(tmp_path / "ray.cert")] if engine == "dfpn" else []
    on_ray = json.loads(_gameproof([*solve, *_ray(cluster), *certificate], cluster.env))
    local = json.loads(_gameproof(solve))
    assert (on_ray["backend"], local["backend"], on_ray["engine"]) == ("ray", "local", engine)
    assert (on_ray["value"], on_ray["moves"]) == (local["value"], local["moves"])
    assert on_ray["nodes"] == on_ray["progress"]["nodes"] > 0 and on_ray["tt_entries"] is None
    if certificate:
        checked = check_certificate(certificate[1])
        assert checked.accepted and checked.value.value == local["value"]


# A driver in its own process (Ray keeps one connection, and one token, per process).
DRIVER = """
import json, sys
import job_tasks
from gameproof.search.jobs import Backend, Job, JobFailed, SqliteJournal, run_jobs, task_name

def run(task, jobs, **options):
    with SqliteJournal(f"{sys.argv[2]}/{task.__name__}.db", task_name(task)) as journal:
        try:
            run_jobs(task, jobs, journal, backend=Backend.RAY, address=sys.argv[1], **options)
        except JobFailed as error:
            return str(error)
        return journal.results()

jobs = [Job(f"n{n}", {"n": n}) for n in range(8)]
print(json.dumps({
    "tables": run(job_tasks.table_and_pid, jobs, shared_table_mb=1),
    "threads": run(job_tasks.table_thread_and_pid, jobs, shared_table_mb=1, threads=True),
    "retried_on_threads": run(job_tasks.square_or_die_once, [Job(job.key, {"n": job.arguments["n"],
                                                                       "marks": sys.argv[2] + "/threads"})
                                                              for job in jobs], retries=2, shared_table_mb=1,
                              threads=True),
    "retried": run(job_tasks.square_or_die_once, [Job(job.key, {"n": job.arguments["n"], "marks": sys.argv[2]})
                                                   for job in jobs], retries=2, shared_table_mb=1),
    "raised": run(job_tasks.refuse, jobs[1:2]),
    "always_died": run(job_tasks.always_die, jobs[:1], retries=1),
}))
"""


def test_on_the_cluster_workers_live_for_the_run_share_a_table_and_fail_as_locally(cluster, tmp_path):
    (tmp_path / "threads").mkdir()
    ran = subprocess.run([sys.executable, "-c", DRIVER, cluster.address, str(tmp_path)], env=cluster.env,
                         capture_output=True, text=True, check=True)
    found = json.loads(ran.stdout)
    tables = {name for name, _ in found["tables"].values()}
    workers = {pid for _, pid in found["tables"].values()}
    assert len(found["tables"]) == 8 and len(workers) <= 2  # two workers for the whole run, not one per job
    assert len(tables) == 1  # both nodes are on this machine: one table for the two workers
    assert not any(Path("/dev/shm", name).exists() for name in tables)  # released at the end
    assert found["retried"] == {f"n{n}": n * n for n in range(8)}
    # On threads, the two nodes' workers (one machine) run their jobs in one process, over one private table.
    tables, _, processes = (set(column) for column in zip(*found["threads"].values()))
    assert len(found["threads"]) == 8 and len(tables) == 1 and len(processes) == 1
    assert processes.isdisjoint(workers)  # not the workers of the run before: each run starts its own
    assert found["retried_on_threads"] == {f"n{n}": n * n for n in range(8)}  # a dead process takes both threads
    assert found["raised"] == "job n1 failed: ValueError: no square for 1"
    assert found["always_died"] == "a worker died 2 times while running job n0"


def test_an_address_where_no_cluster_answers_is_refused_in_one_line(tmp_path):
    from ray_cluster import free_port

    ran = subprocess.run([*GAMEPROOF, *BOOK, "--db", str(tmp_path / "b.db"), "--backend", "ray", "--address",
                          f"127.0.0.1:{free_port()}"], capture_output=True, text=True)
    assert ran.returncode == 2
    assert ran.stderr.startswith("gameproof: error: cannot reach the Ray cluster at 127.0.0.1:")
    assert ran.stderr.count("\n") == 1
