#!/usr/bin/env python3
"""The generations table of README.md from metrics.jsonl (beside this script),
with each generation's `games` (games.sh) where it was measured."""
import json, os, subprocess
here = os.path.dirname(os.path.abspath(__file__))
# Generation 13's games were measured with the chains (../chains/genb13/).
EARLIER = {13: os.path.join(here, "..", "chains", "genb13", "games-g13-plain-10k.json")}


def games_lines(cycle):
    """Generation `cycle`'s network's lines in each of its `games`, or None
    where it was not measured (or is still being written)."""
    path = os.path.join(here, "games", f"games-g{cycle:03d}.json")
    path = path if os.path.exists(path) else EARLIER.get(cycle)
    if not path or not os.path.exists(path):
        return None
    try:
        return [x["lines"] for x in json.load(open(path))["evals"][0]["games"]]
    except (ValueError, KeyError, IndexError):
        return None


def steady():
    """Each network's steady suite (steady/curve.tsv): pieces and rows
    frozen per 100 pieces, by the generation that trained it."""
    path = os.path.join(here, "steady", "curve.tsv")
    rows = [l.rstrip("\n").split("\t") for l in open(path)][1:]
    return {int(r[0]): (float(r[1]), float(r[3])) for r in rows}


def buried(replay):
    """The pieces after which the game's floor row and the one above it
    last changed (`hatetris verify`'s rows_frozen_at; HATETRIS names the
    binary, default this checkout's release build)."""
    binary = os.environ.get("HATETRIS") or os.path.join(here, "..", "..", "..", "target", "release", "hatetris")
    out = subprocess.run([binary, "verify", "-"], input=replay, capture_output=True, text=True, check=True)
    return ", ".join(str(p) for p in json.loads(out.stdout)["rows_frozen_at"][:2])


def games(cycle):
    g = games_lines(cycle)
    if not g:
        return ""
    mean = sum(g) / len(g)
    sd = (sum((x - mean) ** 2 for x in g) / (len(g) - 1)) ** 0.5
    return f"{mean:.1f} ± {1.96 * sd / len(g) ** 0.5:.1f}"


# Core-seconds that wall time times cores overcounts: generation 28's
# search to its save at depth 240 ran on one thread (4,650 s counted once,
# not twice); generation 29's refine, resumed in session 54, was paused
# 4,080 s there while its first 2,940 s (session 53, before the resume)
# are not in its wall time: 1,140 s on two cores.
OVERCOUNT = {28: 4650, 29: 2280}
# And what it misses: generation 36's refine ran over three sessions, and
# its record counts the last part (2,987 s for 250,780 wells); all
# 501,560 at that rate took about 5,970 s, 2,983 s more on two cores.
# Generation 37's refine ran over two sessions and its record counts the
# second (2,015 s for 121,190 wells); the first 92,683 at that rate took
# about 1,541 s more on two cores.
UNDERCOUNT = {36: 5966, 37: 3082}

if __name__ == "__main__":
    total = 0.0
    curve = steady()
    for line in open(os.path.join(here, "metrics.jsonl")):
        m = json.loads(line)
        retry = f" (retry with the network before: {m['retry_lines']})" if m.get("retry_lines") is not None else ""
        # From generation 37 the search goes on from the last game's end.
        if m.get("from_piece") is not None:
            retry += f" (searched from piece {m['from_piece']})"
        width = m.get("width") or 100000  # generations before widths were recorded searched at 100k
        q, band = m.get("chains") or (4, 3)  # and chained 4 deep, band 3
        # Generations 1-9 ran on one thread, from 10 on both cores, 25-27 on
        # one again (26 on two from depth 180 to 320; README.md) and from 28
        # on both, less what OVERCOUNT names.
        cores = 1 if m["cycle"] <= 9 or 25 <= m["cycle"] <= 27 else 2
        blend = m.get("chain_blend", 1)
        blended = f", blend {blend:g}" if blend != 1 else ""
        # A resumed cycle's wall time counts from the resume; its search time
        # counts from the first piece (the saves carry it).
        secs = max(m["wall_secs"], m["search_secs"] + m["refine_secs"]) * cores
        total += (secs - OVERCOUNT.get(m["cycle"], 0) + UNDERCOUNT.get(m["cycle"], 0)) / 3600
        st = curve.get(m["cycle"])
        if st is None and m.get("steady_pieces") is not None:
            # The cycle measured it itself (binaries from session 69 on).
            st = (m["steady_pieces"], m["steady_frozen_per_100"])
        st = f"{st[0]:.1f}, {st[1]:.2f}" if st else ""
        refine = f"{m['refine_secs']:.0f}"
        if m["cycle"] in UNDERCOUNT:
            refine += f" (about {m['refine_secs'] + UNDERCOUNT[m['cycle']] / cores:,.0f} in all)"
        print(f"| {m['cycle']} | {width:,}, band {band}{blended} | {m['lines']}, {m['pieces']}{retry} | "
              f"{m['frozen_per_100']:.2f} | {buried(m['replay'])} | {m['search_secs']:.0f} | "
              f"{refine} | {total:.1f} | {m['suite_pieces']:.1f}, {m['suite_lines']:.1f} | {st} | "
              f"{games(m['cycle'])} |")
