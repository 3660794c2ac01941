# wells.py: what lv.py, holes.py and shape.py read from a game: its trace
# (`hatetris verify --trace`) and the shape of a well.
import json


def read_trace(path):
    """The trace's lock lines, in order (each with its well, 20 rows top first)."""
    return [json.loads(l) for l in open(path) if l.startswith('{') and '"lock"' in l]


def shape(well):
    """A well's playable rows (the 16 below the bar) measured: column heights
    (playable rows up to each column's highest cell), covered empty cells
    (an empty cell with a filled one above it in its column), the rows
    holding one, and the filled cells."""
    rows = well[4:]
    heights = [next((16 - i for i, r in enumerate(rows) if (r >> c) & 1), 0) for c in range(10)]
    holes, hole_rows = 0, set()
    for c in range(10):
        seen = False
        for i, r in enumerate(rows):
            if (r >> c) & 1:
                seen = True
            elif seen:
                holes += 1
                hole_rows.add(i)
    cells = sum(bin(r).count('1') for r in rows)
    return heights, holes, len(hole_rows), cells
