"""Reads and writes the .htds data sets (crates/learn/src/dataset.rs: the
frame, variable-length records, the END! trailer and its CRC32)."""
import struct, zlib
def read(path):
    b = open(path,'rb').read()
    assert b[:4]==b'HTDS'
    _, n = struct.unpack_from('<II', b, 4)
    off = 12 + n
    desc = b[12:off]
    recs = []
    end = len(b) - 16
    while off < end:
        r = b[off]; ln = 1 + 2*r + 4
        recs.append(b[off:off+ln]); off += ln
    assert b[off:off+4]==b'END!', b[off:off+4]
    cnt, crc = struct.unpack_from('<QI', b, off+4)
    assert cnt == len(recs), (cnt, len(recs))
    assert zlib.crc32(b[:off+12]) == crc, 'crc'
    return desc, recs
def target(rec):
    return struct.unpack_from('<f', rec, len(rec)-4)[0]
def write(path, desc, recs):
    body = b'HTDS' + struct.pack('<II', 1, len(desc)) + desc + b''.join(recs) + b'END!' + struct.pack('<Q', len(recs))
    open(path,'wb').write(body + struct.pack('<I', zlib.crc32(body)))
