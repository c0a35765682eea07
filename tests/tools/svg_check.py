#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""svg_check.py — checks an SVG written by `qcount N --svg FILE`.

Usage: svg_check.py SVG N BOARDS [PNG]

Parses the SVG (xml.etree): the root is an <svg> with a width, height and
viewBox; there are BOARDS boards (<g class="board">), each with N queens
(<use class="queen">) on distinct rows and columns, no two on a diagonal,
inside the board, matching the board's <title> (its columns, 1-based).
With PNG (the SVG rendered, e.g. by rsvg-convert), decodes it (zlib, no
imaging library) and checks the picture: its size is the SVG's, the middle
of each queen's square is queen-coloured, and the middle of every other
square has the light or dark colour of its square.  Exit 0 when all holds.
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def read_png(path):
    """Returns (width, height, rows) with rows[y][x] = (r, g, b)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "unsupported PNG"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def hex_rgb(s):
    s = s.lstrip("#")
    if len(s) == 3:
        s = "".join(ch * 2 for ch in s)
    return tuple(int(s[i:i + 2], 16) for i in (0, 2, 4))


def close(p, q, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def main():
    path, n, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    root = ET.parse(path).getroot()
    check(root.tag == NS + "svg", "root is not <svg>")
    width, height = int(root.get("width")), int(root.get("height"))
    check(root.get("viewBox") == "0 0 %d %d" % (width, height), "viewBox")
    pattern = root.find("%sdefs/%spattern" % (NS, NS))
    rects = pattern.findall(NS + "rect")
    light, dark = hex_rgb(rects[0].get("fill")), hex_rgb(rects[1].get("fill"))
    queen = hex_rgb(root.find(".//%ssymbol/%sg" % (NS, NS)).get("fill"))
    boards = [g for g in root.findall(NS + "g") if g.get("class") == "board"]
    check(len(boards) == want, "%d boards, want %d" % (len(boards), want))
    placed = []
    for k, g in enumerate(boards):
        tx, ty = (int(v) for v in g.get("transform")[len("translate("):-1].split(","))
        side = int(g.find(NS + "rect").get("width"))
        sq = side // n
        check(sq * n == side, "board %d: side %d not a multiple of %d" % (k, side, n))
        cols = {}
        for u in g.findall(NS + "use"):
            check(u.get("class") == "queen", "board %d: a <use> that is not a queen" % k)
            x, y = int(u.get("x")), int(u.get("y"))
            check(x % sq == 0 and y % sq == 0 and 0 <= x < side and 0 <= y < side,
                  "board %d: queen off the squares at %d,%d" % (k, x, y))
            check(y // sq not in cols, "board %d: two queens on row %d" % (k, y // sq))
            cols[y // sq] = x // sq
        check(sorted(cols) == list(range(n)), "board %d: rows %s" % (k, sorted(cols)))
        c = [cols.get(r, -1) for r in range(n)]
        check(len(set(c)) == n, "board %d: a column twice" % k)
        for a in range(n):
            for b in range(a):
                check(abs(c[a] - c[b]) != a - b, "board %d: rows %d and %d on a diagonal" % (k, b, a))
        title = g.find(NS + "title").text.split()
        check(title == [str(v + 1) for v in c], "board %d: title %s, queens %s" % (k, title, c))
        placed.append((tx, ty, sq, c))
    if len(sys.argv) > 4:
        w, h, px = read_png(sys.argv[4])
        check((w, h) == (width, height), "PNG is %dx%d, SVG %dx%d" % (w, h, width, height))
        for k, (tx, ty, sq, c) in enumerate(placed):
            for r in range(n):
                for col in range(n):
                    got = px[ty + r * sq + sq // 2][tx + col * sq + sq // 2]
                    expect = queen if c[r] == col else light if (r + col) % 2 == 0 else dark
                    check(close(got, expect), "board %d square %d,%d: pixel %s, want %s" % (k, r, col, got, expect))
    for f in failures[:20]:
        print("FAIL", f)
    print("%s: %d boards, %d queens, %dx%d, %d failures" % (path, len(boards), sum(len(p[3]) for p in placed),
                                                          width, height, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
