"""Recall's client side: Python CPU and database round trips per recall (issue 18).

Runs on bench_recall's data (build it first with bench/bench_recall.py) and recalls as
its agent, cycling through its queries, lexical and hybrid on both scopes. Prints, per
scope and kind, this process's CPU per recall (time.process_time: PostgreSQL's work is
not in it) and the statements each recall sends. `--profile SCOPE` prints a cProfile of
that scope's hybrid loop instead.

    DEBUG=true DATABASE_URL=postgres://… .venv/bin/python bench/bench_recall_client.py
"""

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_recall import QUERIES, SCOPES, agent_user, percentile, recaller
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.memory import tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=280, help="Recalls per scope.")
    parser.add_argument("--profile", choices=list(SCOPES), help="cProfile this scope's hybrid.")
    args = parser.parse_args()
    tasks.record_recall_accesses_task.apply_async = lambda *a, **k: None
    # As in production: DEBUG (needed for the development keys) would log every statement.
    settings.DEBUG = False
    user = agent_user()
    if args.profile:
        recall = recaller(user, f"{SCOPES[args.profile][0]}-000", hybrid=True)
        for query in QUERIES:
            recall(query)
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        for n in range(args.iterations):
            recall(QUERIES[n % len(QUERIES)])
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
        return
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for name, (prefix, _, _) in SCOPES.items():
        for hybrid in (False, True):
            recall = recaller(user, f"{prefix}-000", hybrid=hybrid)
            for query in QUERIES:  # warm-up
                recall(query)
            costs, statements = [], []
            for n in range(args.iterations):
                before = time.process_time()
                recall(QUERIES[n % len(QUERIES)])
                costs.append((time.process_time() - before) * 1000)
            for query in QUERIES:  # counted apart: capturing costs CPU of its own
                with CaptureQueriesContext(connection) as captured:
                    recall(query)
                statements.append(len(captured))
            costs.sort()
            label = ("hybrid_" if hybrid else "") + name
            print(
                f"RESULT\trecall_client_cpu_{label}\tp50 {percentile(costs, 0.5):.2f}"
                f"\tp95 {percentile(costs, 0.95):.2f}\tmean {statistics.fmean(costs):.2f}\tms"
                f"\tstatements {statistics.fmean(statements):.2f}/recall"
            )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
