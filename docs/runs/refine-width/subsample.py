#!/usr/bin/env python3
"""subsample.py K SRC OUT [FIRST]: every K-th well (from the FIRST-th, 0 by default) of a cycle's samples.htds (SRC) into
OUT/cycle-015/samples.htds, and the same wells with their refined targets
(SRC/refined.htds, in the samples' order) into OUT/A.htds. The .htds frame
(dataset.rs): header, records (u8 rows, rows x u16, f32 target), trailer
b"END!", u64 count, CRC32 of everything before it."""
import struct, zlib, sys
def read(path):
    b = open(path, 'rb').read()
    assert b[:4] == b'HTDS'
    ver, n = struct.unpack_from('<II', b, 4)
    desc = b[12:12+n]
    p = 12 + n
    recs = []
    end = len(b) - (4 + 8 + 4)
    while p < end:
        h = b[p]
        rows = b[p+1:p+1+2*h]
        t = struct.unpack_from('<f', b, p+1+2*h)[0]
        recs.append((h, rows, t))
        p += 5 + 2*h
    assert b[p:p+4] == b'END!', (p, end)
    cnt = struct.unpack_from('<Q', b, p+4)[0]
    assert cnt == len(recs)
    assert zlib.crc32(b[:p+12]) == struct.unpack_from('<I', b, p+12)[0]
    return ver, desc, recs
def write(path, ver, desc, recs):
    out = bytearray(b'HTDS' + struct.pack('<II', ver, len(desc)) + desc)
    for h, rows, t in recs:
        out += bytes([h]) + rows + struct.pack('<f', t)
    out += b'END!' + struct.pack('<Q', len(recs))
    out += struct.pack('<I', zlib.crc32(out))
    open(path, 'wb').write(out)
if __name__ == "__main__":
    k, src, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    v, d, s = read(f"{src}/samples.htds")
    v2, d2, r = read(f"{src}/refined.htds")
    assert len(s) == len(r) and all(a[1] == b[1] for a, b in zip(s, r)), "refined is not in the samples' order"
    write(f"{out}/cycle-015/samples.htds", v, d, s[first::k])
    write(f"{out}/A.htds", v2, d2, r[first::k])
    print(len(s), len(s[first::k]))
