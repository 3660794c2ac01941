#!/usr/bin/env python3
"""Where a master game buries a row: the stack's height and the dealt
pieces in the 12 locks before each row froze, against the whole game.

usage: heights.py [REPLAY ...]   (default: every master-*.b2048 of gen-b)
HATETRIS names the binary (default: this checkout's release build).

A row "freezes" at the lock `hatetris verify` reports in rows_frozen_at;
the floor row (frozen by piece 30-97 in every game) and the rows of the
last 150 locks (the death cascade) are left out, so the events are the
ones that decide how long a game lives. The height is the playable rows
up to the highest filled cell (16 is the top row below the bar).
"""
import collections
import glob
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../../.."))
BIN = os.environ.get("HATETRIS", os.path.join(ROOT, "target/release/hatetris"))
TAIL = 150
BEFORE = 12


def height(well):
    for i, row in enumerate(well[4:]):
        if row:
            return 16 - i
    return 0


def main():
    replays = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "../master-*.b2048")))
    pieces_all, pieces_near = collections.Counter(), collections.Counter()
    h_all, h_near = [], []
    for path in replays:
        out = subprocess.run([BIN, "verify", "--trace", path], check=True, capture_output=True, text=True).stdout
        locks = [json.loads(line) for line in out.splitlines()][1:]
        score = json.loads(subprocess.run([BIN, "verify", path], check=True, capture_output=True, text=True).stdout)
        n = len(locks)
        hs = [height(e["well"]) for e in locks]
        dealt = [e.get("next_piece") for e in locks]
        events = [t for t in score["rows_frozen_at"][1:] if t < n - TAIL]
        for i in range(n - TAIL):
            pieces_all[dealt[i]] += 1
            h_all.append(hs[i])
        lows = []
        for t in events:
            span = range(max(0, t - BEFORE), t)
            lows.append(min(hs[i] for i in span))
            for i in span:
                pieces_near[dealt[i]] += 1
                h_near.append(hs[i])
        print(f"{os.path.basename(path)}: {n} pieces, rows frozen at {events} "
              f"(lowest stack in the {BEFORE} locks before: {lows}), mean height {statistics.mean(hs[:n - TAIL]):.1f}")

    def share(c):
        total = sum(c.values())
        return ", ".join(f"{k} {v / total:.3f}" for k, v in c.most_common())

    def dist(hs):
        c = collections.Counter(hs)
        return ", ".join(f"{h}: {c[h] / len(hs):.3f}" for h in sorted(c))

    print(f"dealt, whole games: {share(pieces_all)}")
    print(f"dealt, {BEFORE} locks before a freeze: {share(pieces_near)}")
    print(f"height, whole games: mean {statistics.mean(h_all):.2f}; {dist(h_all)}")
    print(f"height, before a freeze: mean {statistics.mean(h_near):.2f}; {dist(h_near)}")


if __name__ == "__main__":
    main()
