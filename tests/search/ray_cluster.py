"""A throwaway Ray cluster of two nodes on this machine, as `ray start --head` and `ray start --address` make
one on two machines, with token authentication (Ray 2.60 asks for it). It is stopped by the processes it
started, never by `ray stop`, which stops every Ray process on the machine.

Used by the tests of `--backend ray --address` and by bench/bench_ray.py.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

RAY = str(Path(sys.executable).with_name("ray"))
#: How long the nodes may take to start and to join.
START_SECONDS = 90.0
#: How long a node may take to stop after SIGTERM before what is left of it is killed.
STOP_SECONDS = 20.0


@dataclass(frozen=True)
class Cluster:
    """A running cluster: its address, and the environment a driver needs to join it."""

    address: str
    env: dict[str, str]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _node(folder: Path, name: str, cpus: int, env: dict[str, str], *where: str) -> subprocess.Popen:
    """`ray start --block` for one node, its ports picked free (several clusters may run here at once)."""
    log = open(folder / f"{name}.log", "w")
    command = [RAY, "start", "--block", *where, "--num-cpus", str(cpus), "--temp-dir", str(folder / name),
               "--disable-usage-stats", "--object-store-memory", str(100 << 20),
               "--dashboard-agent-listen-port", str(free_port()), "--metrics-export-port", str(free_port())]
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _wait_for_nodes(cluster: Cluster, count: int, nodes: Sequence[subprocess.Popen], folder: Path) -> None:
    """Return once ``count`` nodes are alive in the cluster; raise, with the nodes' logs, if a node stops first
    or they take longer than ``START_SECONDS``."""
    check = ("import ray, sys, time\n"
             "ray.init(address=sys.argv[1], log_to_driver=False, configure_logging=False)\n"
             "while sum(node['Alive'] for node in ray.nodes()) < int(sys.argv[2]):\n"
             "    time.sleep(0.2)\n")
    waiting = subprocess.Popen([sys.executable, "-c", check, cluster.address, str(count)], env=cluster.env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + START_SECONDS
    while waiting.poll() is None and all(node.poll() is None for node in nodes) and time.monotonic() < deadline:
        time.sleep(0.2)
    if waiting.poll() == 0:
        return
    waiting.kill()
    waiting.wait()
    logs = "\n".join(f"{path.name}: {path.read_text()[-3000:]}" for path in folder.glob("*.log"))
    raise RuntimeError(f"the Ray cluster at {cluster.address} did not start:\n{logs}")


def _started(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot), or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2:].split()[19])


def _descendants(pid: int) -> dict[int, int | None]:
    """The processes below ``pid`` (read from /proc), each with when it started."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return {child: _started(child) for child in found}


def _stop(processes: Sequence[subprocess.Popen]) -> None:
    """SIGTERM to each `ray start --block` at once (each stops its node's processes), then SIGKILL to those of their
    processes that are still there (the same pid and start time) after ``STOP_SECONDS``, or at once should the wait
    be interrupted (pytest-xdist interrupts a test process whose session takes seconds to end)."""
    family = {pid: began for process in processes for pid, began in _descendants(process.pid).items()}
    for process in processes:
        process.send_signal(signal.SIGTERM)
    try:
        deadline = time.monotonic() + STOP_SECONDS
        while any(process.poll() is None for process in processes) and time.monotonic() < deadline:
            time.sleep(0.1)
        while any(_started(pid) == began for pid, began in family.items()) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        for process in processes:
            process.kill()
            process.wait()
        for pid, began in family.items():
            if began is not None and _started(pid) == began:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:  # it ended just now
                    pass


@contextmanager
def two_nodes(pythonpath: Sequence[str] = (), cpus: int = 1) -> Iterator[Cluster]:
    """A head node and a second node of ``cpus`` CPUs each, whose workers find ``pythonpath`` (besides this
    interpreter's packages); stopped, and their folder removed, when the block ends."""
    folder = Path(tempfile.mkdtemp(prefix="gpray"))  # short: Ray's socket paths live under it
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32),
           "PYTHONPATH": os.pathsep.join([*pythonpath, *sys.path])}
    port = free_port()
    cluster = Cluster(f"127.0.0.1:{port}", env)
    processes: list[subprocess.Popen] = []
    try:
        processes.append(_node(folder, "head", cpus, env, "--head", "--port", str(port), "--include-dashboard=false",
                               "--dashboard-port", str(free_port())))
        processes.append(_node(folder, "second", cpus, env, "--address", cluster.address))
        _wait_for_nodes(cluster, 2, processes, folder)
        yield cluster
    finally:
        try:
            _stop(processes)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
