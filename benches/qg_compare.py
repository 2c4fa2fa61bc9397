"""Queen's Garden speed of two builds as ratios, the two alternated in one run (issue 31).

Run:
    python benches/qg_compare.py BASE NEW [--pairs 4] [--workloads policy:2:30000,...]

BASE and NEW are two builds of one workload example (the ``qg_speed`` example, or the same
example file copied into an older tree and built there), each run as
``BINARY WORKLOAD PLAYERS COUNT``, printing ``... N moves, checksum X``. For each workload the
two binaries run ``--pairs`` times each, alternated (base first in odd pairs, new first in even
ones, so a change of load hits both); the user CPU time of each run comes from the operating
system (``os.wait4``), and the ratio is the base's summed time over the new one's. Both builds
must print the same moves and checksum (the same games), or the workload is reported as
different and left out. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

DEFAULT_WORKLOADS = (
    "policy:2:30000,policy:4:15000,random:2:6000,random:4:2400,"
    "legal:2:150000,legal:4:80000,opening:2:15000,midgame:2:15000"
)

LINE = re.compile(r"(\d+) moves, checksum ([0-9a-f]+)")


def run(binary: str, workload: str, players: str, count: str) -> tuple[str, float]:
    """One run: its ``moves checksum`` and its user CPU seconds."""
    process = subprocess.Popen(
        [binary, workload, players, count], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        sys.exit(f"{binary} {workload} {players} {count} failed: {out}")
    found = LINE.search(out)
    if found is None:
        sys.exit(f"{binary} printed no moves and checksum: {out!r}")
    return f"{found[1]} {found[2]}", usage.ru_utime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--workloads", default=DEFAULT_WORKLOADS)
    args = parser.parse_args()
    print(f"{args.pairs} alternated pairs, user CPU summed per build; ratio = base / new\n")
    print("| workload | arguments | base | new | ratio |")
    print("|---|---|---|---|---|")
    for item in args.workloads.split(","):
        workload, players, count = item.split(":")
        times = {args.base: 0.0, args.new: 0.0}
        played = set()
        for pair in range(args.pairs):
            order = [args.base, args.new] if pair % 2 == 0 else [args.new, args.base]
            for binary in order:
                result, seconds = run(binary, workload, players, count)
                played.add(result)
                times[binary] += seconds
        arguments = f"`{workload} {players} {count}`"
        if len(played) != 1:
            print(f"| {workload} | {arguments} | different games: {sorted(played)} | | |")
            continue
        base, new = times[args.base], times[args.new]
        print(f"| {workload} | {arguments} | {base:.2f} s | {new:.2f} s | {base / new:.2f}x |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
