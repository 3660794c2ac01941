#!/usr/bin/env python3
"""Re-encodes PNG plots losslessly and smaller: `python3 docs/pngsmall.py FILE.png...`.

8-bit non-interlaced PNGs keep their colour type and every pixel; the
scanlines are stored with filter 0 and deflated at level 9 (the plots the
engine draws shrink about five times); other chunks are kept. A file is
rewritten only if smaller, and only after the result decodes to the same
pixels."""
import sys, zlib, struct

def chunks(data):
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    i = 8
    while i < len(data):
        n = struct.unpack('>I', data[i:i+4])[0]
        yield data[i+4:i+8], data[i+8:i+8+n]
        i += 12 + n

def unfilter(ihdr, idat):
    w, h, bd, ct, _, _, il = struct.unpack('>IIBBBBB', ihdr)
    assert bd == 8 and il == 0, (bd, il)
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ct]
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray(); prev = bytearray(stride); i = 0
    for _ in range(h):
        f = raw[i]; line = bytearray(raw[i+1:i+1+stride]); i += 1 + stride
        if f == 1:
            for x in range(bpp, stride): line[x] = (line[x] + line[x-bpp]) & 255
        elif f == 2:
            for x in range(stride): line[x] = (line[x] + prev[x]) & 255
        elif f == 3:
            for x in range(stride):
                a = line[x-bpp] if x >= bpp else 0
                line[x] = (line[x] + ((a + prev[x]) >> 1)) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
                p = a + b - c; pa = abs(p - a); pb = abs(p - b); pc = abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255
        else:
            assert f == 0
        out += line; prev = line
    return bytes(out), h, stride

def pixels(data):
    cs = list(chunks(data))
    ihdr = next(d for t, d in cs if t == b'IHDR')
    idat = b''.join(d for t, d in cs if t == b'IDAT')
    return cs, ihdr, unfilter(ihdr, idat)

def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)

for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    cs, ihdr, (px, h, stride) = pixels(data)
    raw = b''.join(b'\x00' + px[r*stride:(r+1)*stride] for r in range(h))
    new = b'\x89PNG\r\n\x1a\n'; done = False
    for t, d in cs:
        if t == b'IDAT':
            if not done: new += chunk(b'IDAT', zlib.compress(raw, 9)); done = True
        else:
            new += chunk(t, d)
    _, ihdr2, (px2, _, _) = pixels(new)
    assert ihdr2 == ihdr and px2 == px, path
    if len(new) < len(data):
        open(path, 'wb').write(new); print(f'{path}: {len(data)} -> {len(new)}')
    else:
        print(f'{path}: kept ({len(data)})')
