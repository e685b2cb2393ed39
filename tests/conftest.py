"""Fixtures shared across the test folders."""

import os
import re
import signal
import subprocess
import time

import pytest

from gameproof.logic.drat import CHECKER_VARIABLE, Checker


#: Tests that start Ray (a local instance, or a cluster of their own): run one after another on one test process
#: when the suite runs on several (`make test`: pytest-xdist's --dist loadgroup), as two Ray starts at once would
#: compete for the same machine.
_ON_RAY = re.compile(r"(^|_)ray(_|$)")


def pytest_collection_modifyitems(config, items):
    if not config.pluginmanager.hasplugin("xdist"):  # `-p no:xdist`: no groups to keep
        return
    for item in items:
        if _ON_RAY.search(item.originalname if hasattr(item, "originalname") else item.name) \
                or item.module.__name__.endswith("test_ray_cluster"):
            item.add_marker(pytest.mark.xdist_group("ray"))


@pytest.fixture
def dratify_only(monkeypatch):
    """DRAT proofs are checked with dratify whatever else is installed, whatever their size."""
    monkeypatch.setenv(CHECKER_VARIABLE, Checker.DRATIFY.value)


@pytest.fixture
def killed_midway():
    """``kill(command_at, kept_at, least, total)``: run the build ``command_at(attempt)`` in a process group of its
    own and kill the group with SIGKILL once ``kept_at(attempt)`` of its `total` entries are at least `least`;
    the attempt and the entries kept then. A loaded machine may let the build outrun the kill: then again,
    afresh, up to three times."""

    def kill(command_at, kept_at, least: int, total: int) -> tuple[int, int]:
        for attempt in range(3):
            driver = subprocess.Popen(command_at(attempt), start_new_session=True)
            deadline = time.monotonic() + 120
            while kept_at(attempt) < least and driver.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            assert driver.poll() is None, "the build finished before it could be killed"
            os.killpg(driver.pid, signal.SIGKILL)  # the driver and its workers, mid-way
            driver.wait()
            kept = kept_at(attempt)
            if kept < total:
                break
        assert least <= kept < total
        return attempt, kept

    return kill
