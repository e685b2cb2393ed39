"""Benchmark the certificate checker shared among processes: one certificate checked in one process and on N,
in the same run, and the cost of reading a record's key against checking it (the checker's _KEY_COST, by
which `certificate check --workers N` sizes each process's stretch).

Run: .venv/bin/python bench/bench_certificate_check.py FILE [--workers 2]
(FILE: a certificate, e.g. from `gameproof solve mnk-misere:5,4,4 --value-only --certificate FILE`;
every part is shared here, however small.)
"""

from __future__ import annotations

import argparse
import time

from gameproof.certify import check
from gameproof.certify.check import PartReport, _game, _PartChecker, _replay, check_certificate
from gameproof.certify.records import CertificateReader


def key_cost(path: str) -> tuple[float, float]:
    """Seconds to read every record's key, and to check every record, in one process."""
    seconds = []
    for keys_only in (True, False):
        with CertificateReader(path) as reader:
            game = _game(path, reader.header, None)
            checker = _PartChecker(game, _replay(game, reader.header), reader.header.no_move)
            start = time.perf_counter()
            for index, (part, records) in enumerate(reader.parts(), start=1):
                checker.check(index, part, records, PartReport(part), start=part.nodes if keys_only else 0)
            seconds.append(time.perf_counter() - start)
    return seconds[0], seconds[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a certificate")
    parser.add_argument("--workers", type=int, default=2, help="processes of the shared check (default 2)")
    args = parser.parse_args()
    check.SHARED_LEAST = 1
    keys, checked = key_cost(args.file)
    print(f"keys only {keys:.2f} s, full check {checked:.2f} s: a key costs {keys / checked:.3f} of a check "
          f"(_KEY_COST = {check._KEY_COST})")
    times = {}
    for workers in (1, args.workers):
        report = check_certificate(args.file, workers=workers)
        assert report.accepted, report.finding
        times[workers] = report.seconds
        positions = sum(part.checked for part in report.parts)
        print(f"{workers} process{'es' * (workers > 1)}: {report.seconds:.2f} s, {positions:,} positions, "
              f"{report.value.value}")
    print(f"speed-up on {args.workers}: {times[1] / times[args.workers]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
