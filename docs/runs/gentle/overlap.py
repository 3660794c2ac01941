"""How much of one master search's beams another search visits again.

usage: overlap.py A B [WIDTH]
A and B: a cycle's samples.htds, or a search step's save (search.htsc)
for a search still running. Counts B's samples (2,048 a depth, drawn
from its beam) found among A's samples, per 10 depths of B. If the two
searches held the same beams, about SAMPLES x SAMPLES / WIDTH of B's
samples a depth would be among A's (A's samples are a sample too), so
the share printed is found / that expectation: 1 for the same beams, 0
for disjoint ones."""
import struct, sys, os
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'gen-b', 'tail'))
import htds

def htsc_samples(path):
    # crates/learn/src/cycle/resume.rs: the frame (magic, version), u64 n
    # and the search checkpoint, f64, u128, u32, the pending children
    # (16 rows u16, f32, f32 each), then the samples, then the CRC.
    b = open(path, 'rb').read()
    assert b[:4] == b'HTSC'
    off = 8
    n, = struct.unpack_from('<Q', b, off); off += 8 + n
    off += 8 + 16 + 4
    n, = struct.unpack_from('<Q', b, off); off += 8 + n * (16 * 2 + 8)
    n, = struct.unpack_from('<Q', b, off); off += 8
    out = []
    for _ in range(n):
        ln = 1 + 2 * b[off]
        out.append(b[off:off + ln]); off += ln + 4
    assert off == len(b) - 4, (off, len(b))
    return out

def wells(path):
    if path.endswith('.htsc'):
        return htsc_samples(path)
    return [r[:-4] for r in htds.read(path)[1]]

a, b = wells(sys.argv[1]), wells(sys.argv[2])
width = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
per = 2048
seen = set(a)
expect = per * 10 * min(1.0, per / width)
print(f'A {len(a)} samples, B {len(b)}; B samples found in A per 10 depths (share of the same-beams expectation {expect:.0f}):')
for i in range(0, len(b), per * 10):
    chunk = b[i:i + per * 10]
    found = sum(1 for w in chunk if w in seen)
    print(f'  depths {i // per}-{(i + len(chunk)) // per - 1}: {found} ({found / (expect * len(chunk) / (per * 10)):.2f})')
