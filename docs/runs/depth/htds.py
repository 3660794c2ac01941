# Read and write `.htds` data sets (crates/learn/src/dataset.rs) from Python.
import math, struct, zlib

def read(path):
    b = open(path, 'rb').read()
    assert b[:4] == b'HTDS', path
    assert zlib.crc32(b[:-4]) == struct.unpack('<I', b[-4:])[0], 'checksum ' + path
    n = struct.unpack('<I', b[8:12])[0]
    p = 12 + n
    rows, targets = [], []
    end = len(b) - 16
    while p < end:
        k = b[p]
        rows.append(tuple(struct.unpack('<%dH' % k, b[p + 1:p + 1 + 2 * k])))
        targets.append(struct.unpack('<f', b[p + 1 + 2 * k:p + 5 + 2 * k])[0])
        p += 5 + 2 * k
    assert b[end:end + 4] == b'END!' and struct.unpack('<Q', b[end + 4:end + 12])[0] == len(rows)
    return rows, targets

def write(path, rows, targets, description=b''):
    out = bytearray(b'HTDS' + struct.pack('<II', 1, len(description)) + description)
    for r, t in zip(rows, targets):
        out += struct.pack('<B%dHf' % len(r), len(r), *r, t)
    out += b'END!' + struct.pack('<Q', len(rows))
    out += struct.pack('<I', zlib.crc32(bytes(out)))
    open(path + '.tmp', 'wb').write(out)
    import os; os.replace(path + '.tmp', path)

def depth_groups(rows):
    """Each well's depth index, for a cycle's samples (written depth by
    depth): a depth is a run of wells whose cell count mod 10 is the same,
    since it is 4 d mod 10 at depth d and differs between consecutive ones."""
    groups, g, last = [], 0, None
    for w in rows:
        c = sum(bin(r).count('1') for r in w) % 10
        if last is not None and c != last:
            g += 1
        groups.append(g); last = c
    return groups

def runs(groups):
    """The (start, end) index ranges of equal consecutive values of
    `groups` (e.g. each depth's wells, from `depth_groups`)."""
    b = 0
    while b < len(groups):
        e = b
        while e < len(groups) and groups[e] == groups[b]: e += 1
        yield b, e
        b = e

def rank(v):
    """Each value's rank (0 for the smallest; ties in index order)."""
    o = sorted(range(len(v)), key=lambda i: v[i]); r = [0] * len(v)
    for k, i in enumerate(o): r[i] = k
    return r

def spearman(a, b):
    """Spearman's rank correlation (no tie correction)."""
    A, B = rank(a), rank(b); n = len(a)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(A, B)) / (n * (n * n - 1))

def survival(p):
    """The pieces survived, read back from `diagnose refine ... 1.0
    survival` targets 1 - 2 * 0.98^T (999 for the wells alive at the end)."""
    rows, s = read(p)
    return rows, [math.log((1 - x) / 2) / math.log(0.98) if x < 0.99999 else 999.0 for x in s]
