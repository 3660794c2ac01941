#!/usr/bin/env python3
"""average.py OUT A.hnet B.hnet ...: the weight-by-weight mean of networks of
one lineage (each fitted from the one before, so their hidden units
correspond), written as a .hnet (crates/eval/src/weights.rs: the HTNN
header, f32 arrays, CRC32 of every byte before it)."""
import sys, struct, zlib
from array import array

def floats(path):
    b = open(path, "rb").read()
    assert b[:4] == b"HTNN" and zlib.crc32(b[:-4]) == struct.unpack("<I", b[-4:])[0], path
    a = array("f"); a.frombytes(b[20:-4])
    return b[:20], a

out, paths = sys.argv[1], sys.argv[2:]
header, total = floats(paths[0])
total = array("d", total)
for p in paths[1:]:
    h, a = floats(p)
    assert h == header, f"{p}: another shape"
    for i, x in enumerate(a):
        total[i] += x
mean = array("f", (x / len(paths) for x in total))
body = header + mean.tobytes()
open(out, "wb").write(body + struct.pack("<I", zlib.crc32(body)))
