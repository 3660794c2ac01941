"""thin.py SAMPLES EVERY: rewrites a cycle's samples.htds (the data-set
format of crates/learn/src/dataset.rs) so that only the wells its refine
step takes stay whole: the refine takes every EVERY-th written well
(`RefineStep::read`, from the first), and every other record becomes
a one-row empty well. The picked wells, their order and the record count
are unchanged, so the refine step (and its part keys) gives the same
bytes; the placeholders compress to almost nothing in a stash. Written
to a temporary file and renamed, as the engine writes its files."""
import os
import struct
import sys
import zlib

path, every = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
assert data[:4] == b"HTDS", "not a data set"
version, n = struct.unpack_from("<II", data, 4)
assert version == 1, f"data set version {version}"
pos = 12 + n
head = data[:pos]
out = [head]
count = 0
placeholder = struct.pack("<BHf", 1, 0, 0.0)
while data[pos:pos + 4] != b"END!":
    rows = data[pos]
    size = 1 + 2 * rows + 4
    record = data[pos:pos + size]
    out.append(record if count % every == 0 else placeholder)
    pos += size
    count += 1
stored_count, stored_crc = struct.unpack_from("<QI", data, pos + 4)
assert stored_count == count, f"{stored_count} records stored, {count} read"
assert zlib.crc32(data[:pos + 12]) == stored_crc, "checksum mismatch"
body = b"".join(out) + b"END!" + struct.pack("<Q", count)
body += struct.pack("<I", zlib.crc32(body))
tmp = path + ".thin.tmp"
with open(tmp, "wb") as f:
    f.write(body)
    f.flush()
    os.fsync(f.fileno())
os.replace(tmp, path)
print(f"thin.py: {path}: {count} records, every {every}th kept whole, {len(data)} -> {len(body)} bytes")
