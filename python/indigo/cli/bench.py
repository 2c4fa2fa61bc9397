"""``indigo bench [--json] [--quick]``: time a fixed, seeded workload at every layer; print the
figures and a checksum."""

from __future__ import annotations

import argparse
import json
from typing import Any

from indigo.cli._common import positive


def add_parser(sub: Any) -> None:
    bench = sub.add_parser(
        "bench",
        help="time the engine on a fixed workload",
        description="Time a fixed, seeded workload at every layer (Rust playouts, the batch "
        "API, Python calls, the pure-Python reference engine, ISMCTS on one and two threads) "
        "and print each figure with its unit, the targets it meets, and a checksum of the games "
        "played, which changes only when the engine's behaviour does. Each figure is the best "
        "of --repeat runs, with the runs of compared workloads interleaved; compare figures as "
        "ratios within one run (docs/benchmarks.md).",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object instead")
    bench.add_argument("--quick", action="store_true", help="a tenth of the work: about a second")
    bench.add_argument(
        "--repeat", type=positive, default=3, help="runs of each workload; the best counts (3)"
    )
    bench.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The figures as a table, or one JSON object with ``--json``."""
    # The workloads and the reference engine they time load only for this command.
    from indigo.bench import report
    from indigo.bench import run as run_workloads

    figures = run_workloads(quick=args.quick, repeat=args.repeat)
    print(json.dumps(figures) if args.json else report(figures))
    return 0
