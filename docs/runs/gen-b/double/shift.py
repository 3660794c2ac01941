#!/usr/bin/env python3
"""shift.py SRC OUT K: SRC's wells (a samples.htds) without the first K, so
that a refine taking every 16th well takes the ones the cycle skipped.
Reads and writes the frame with ../../refine-width/subsample.py's code."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
code = open(os.path.join(here, '../../refine-width/subsample.py')).read()
ns = {}
exec(code[:code.index('k, src, out = int(sys.argv[1])')], ns)
src, out, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
ver, desc, recs = ns['read'](src)
ns['write'](out, ver, desc, recs[k:])
print(f"{len(recs) - k} of {len(recs)} wells")
