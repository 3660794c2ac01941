#!/usr/bin/env python3
"""shift.py SRC OUT K: SRC's wells (a samples.htds) without the first K, so
that a refine taking every 16th well takes the ones the cycle skipped.
Reads and writes the frame with ../../refine-width/subsample.py."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../refine-width'))
from subsample import read, write
src, out, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
ver, desc, recs = read(src)
write(out, ver, desc, recs[k:])
print(f"{len(recs) - k} of {len(recs)} wells")
