#!/usr/bin/env python3
"""Welch's comparison of two `games.sh` arms: mean lines of each, B - A with
a 95% interval (Welch-Satterthwaite degrees of freedom), and the CPU time
ratio B/A from DIR/times.tsv.  Usage: welch.py DIR A B; an arm of another
folder is named by its path from DIR (../../gen-b/games/g020).  An arm may
pool several games files, joined by '+' (g034+g034-s1): their games
together, their CPU seconds summed."""
import json, math, os, sys

def t975(df):
    # Two-sided 95% quantile of Student's t, interpolated from a table.
    table = [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (10, 2.228),
             (20, 2.086), (30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980), (1e9, 1.960)]
    for (d0, t0), (d1, t1) in zip(table, table[1:]):
        if df <= d1:
            return t0 + (t1 - t0) * (df - d0) / (d1 - d0)
    return 1.96

def lines(d, arm):
    if "+" in arm:
        return [v for part in arm.split("+") for v in lines(d, part)]
    d, arm = os.path.split(os.path.join(d, arm))
    e = json.load(open(f"{d}/games-{arm}.json"))["evals"][0]
    return [g["lines"] for g in e["games"]]

def mean_and_var_of_mean(x):
    """The mean of x and the variance of that mean (sample variance / n)."""
    m = sum(x) / len(x)
    return m, sum((v - m) ** 2 for v in x) / (len(x) - 1) / len(x)

def cpu(d, arm):
    if "+" in arm:
        return sum(cpu(d, part) for part in arm.split("+"))
    d, arm = os.path.split(os.path.join(d, arm))
    for line in open(f"{d}/times.tsv"):
        f = line.rstrip("\n").split("\t")
        if f[0] == arm and f[2] == "games":
            return float(f[4]) + float(f[5])
    return float("nan")

def main():
    d, a, b = sys.argv[1:4]
    A, B = lines(d, a), lines(d, b)
    (ma, sa), (mb, sb) = mean_and_var_of_mean(A), mean_and_var_of_mean(B)
    se = math.sqrt(sa + sb)
    df = se ** 4 / (sa ** 2 / (len(A) - 1) + sb ** 2 / (len(B) - 1))
    h = t975(df) * se
    print(f"{b} vs {a}: {mb:.1f} vs {ma:.1f} lines over {len(B)} and {len(A)} games, "
          f"{mb - ma:+.1f} [{mb - ma - h:+.1f}, {mb - ma + h:+.1f}]; CPU {cpu(d, b):.0f} s vs {cpu(d, a):.0f} s, ratio {cpu(d, b) / cpu(d, a):.2f}")


if __name__ == "__main__":
    main()
