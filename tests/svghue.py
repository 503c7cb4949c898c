# SPDX-License-Identifier: GPL-2.0-only
"""No two curves of a panel of a latt plot share a hue family (issue 36).

A curve is a path with a stroke; a panel, each group that the plot draws
curves in (the percentiles, the time panel, a frame class's panel, the
strip of what else ran), or the whole picture when it has none of them
(a sweep's curve).  The parts of one curve (its line and its dots) share
its colour: a panel's colours are compared, each two.  Two colours are of
one family when both are greys (CIELAB chroma under 12), or when their
CIELAB hues are less than 30 degrees apart: the issue's orange "#e69f00"
and vermilion "#d55e00" are 22 apart, blue "#0072b2" and sky "#56b4e9" 15.
Used by tests/t_everyday.sh, t_frames.sh and t_sweep.sh (PYTHONPATH).
"""
import math

NS = "{http://www.w3.org/2000/svg}"
PANELS = ("percentiles", "timeline", "noise")


def chroma_hue(colour):
    """CIELAB chroma and hue (degrees) of "#rgb" or "#rrggbb" (sRGB, D65)."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(2 * x for x in c)
    rgb = [int(c[k:k + 2], 16) / 255 for k in (0, 2, 4)]
    r, g, b = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
               for v in rgb]
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    a, bb = 500 * (f(x) - f(y)), 200 * (f(y) - f(z))
    return math.hypot(a, bb), math.degrees(math.atan2(bb, a)) % 360


def one_family(c1, c2):
    (k1, h1), (k2, h2) = chroma_hue(c1), chroma_hue(c2)
    if k1 < 12 or k2 < 12:
        return k1 < 12 and k2 < 12
    return abs((h1 - h2 + 180) % 360 - 180) < 30


def panels(root):
    """(id, element) of each panel of the plot whose root is root."""
    gs = [(g.get("id"), g) for g in root.iter(NS + "g")
          if g.get("id") in PANELS or
          (g.get("id") or "").startswith("frames-")]
    return gs or [("plot", root)]


def clashes(root):
    """Each two colours of one panel's curves of one hue family."""
    out = []
    for name, g in panels(root):
        cols = sorted({p.get("stroke").lower() for p in g.iter(NS + "path")
                       if p.get("stroke", "none") != "none"})
        out += ["%s: %s and %s of one hue family" % (name, a, b)
                for i, a in enumerate(cols) for b in cols[i + 1:]
                if one_family(a, b)]
    return out


# The pairs are caught; a grey and black are one family.
assert one_family("#e69f00", "#d55e00") and one_family("#0072b2", "#56b4e9")
assert one_family("#666", "#000000") and not one_family("#0072b2", "#e69f00")
