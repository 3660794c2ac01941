#!/usr/bin/env python3
"""wells.py A B: where two games' wells agree, lock by lock.

Each game is a replay (as `hatetris verify` takes it); the binary is
HATETRIS (default this checkout's release build). Prints the first lock
whose wells differ, the last lock whose wells agree, and per 50 locks how
many agree and both scores: how from-end-700 found a tail search
replaying the game it went on from, and whole46 a game off the trunk.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))


def trace(path):
    binary = os.environ.get("HATETRIS", os.path.join(ROOT, "target/release/hatetris"))
    out = subprocess.run([binary, "verify", "--trace", path], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"wells.py: {path}: {out.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return [json.loads(line) for line in out.stdout.splitlines()[1:]]


def main():
    if len(sys.argv) != 3:
        print("usage: wells.py GAME_A GAME_B", file=sys.stderr)
        sys.exit(2)
    a, b = trace(sys.argv[1]), trace(sys.argv[2])
    n = min(len(a), len(b))
    same = [a[i]["well"] == b[i]["well"] for i in range(n)]
    first_diff = next((i + 1 for i in range(n) if not same[i]), None)
    last_same = max((i + 1 for i in range(n) if same[i]), default=0)
    print(f"locks {len(a)} and {len(b)}; first differing lock {first_diff}; last agreeing lock {last_same}")
    for s in range(0, n, 50):
        e = min(n, s + 50)
        print(f"{s + 1:5d}-{e:5d}: {sum(same[s:e]):3d}/{e - s} wells agree, scores {a[e - 1]['score']} and {b[e - 1]['score']}")


if __name__ == "__main__":
    main()
