"""Colour-vision checks for the players' colours: how a colour looks to a
person with deuteranopia, protanopia or tritanopia, and how far apart two
colours are then.

- Simulation: Machado, Oliveira and Fernandes (2009), "A physiologically-based
  model for simulation of color vision deficiency", the severity-1.0 matrices
  (full dichromacy, the hardest case), applied in linear sRGB.
- Distance: CIEDE2000 (ΔE00) in CIELAB under D65, and the CIELAB hue angle.
- Contrast: WCAG 2 relative luminance and contrast ratio.

Pure Python (no numpy): a handful of colours, checked in microseconds.
"""

from __future__ import annotations

import math

Rgb = tuple[float, float, float]

# Machado et al. 2009, Table 1, severity 1.0 (rows sum to 1: white stays white)
MACHADO: dict[str, tuple[Rgb, Rgb, Rgb]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = ("normal", *MACHADO)


def parse_hex(colour: str) -> Rgb:
    """'#56b4e9' -> sRGB in 0..1."""
    h = colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(colour: str, vision: str) -> Rgb:
    """The sRGB (0..1) that a person with `vision` sees for `colour`."""
    rgb = parse_hex(colour)
    if vision == "normal":
        return rgb
    lin = [to_linear(c) for c in rgb]
    m = MACHADO[vision]
    return (
        to_srgb(sum(m[0][i] * lin[i] for i in range(3))),
        to_srgb(sum(m[1][i] * lin[i] for i in range(3))),
        to_srgb(sum(m[2][i] * lin[i] for i in range(3))),
    )


def luminance(rgb: Rgb) -> float:
    """WCAG relative luminance of an sRGB colour."""
    r, g, b = (to_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Rgb, b: Rgb) -> float:
    """WCAG contrast ratio (1..21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def lab(rgb: Rgb) -> Rgb:
    """sRGB -> CIELAB (D65)."""
    r, g, b = (to_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def hue(rgb: Rgb) -> float:
    """CIELAB hue angle in degrees."""
    _, a, b = lab(rgb)
    return math.degrees(math.atan2(b, a)) % 360


def hue_distance(a: Rgb, b: Rgb) -> float:
    """The smaller angle between two hues (0..180 degrees)."""
    d = abs(hue(a) - hue(b)) % 360
    return min(d, 360 - d)


def delta_e00(lab1: Rgb, lab2: Rgb) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm**7 / (cm**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lm = (l1 + l2) / 2
    cmp_ = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hm = (h1p + h2p + 360) / 2
    else:
        hm = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hm - 30))
        + 0.24 * math.cos(math.radians(2 * hm))
        + 0.32 * math.cos(math.radians(3 * hm + 6))
        - 0.20 * math.cos(math.radians(4 * hm - 63))
    )
    dtheta = 30 * math.exp(-(((hm - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cmp_**7 / (cmp_**7 + 25**7))
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc = 1 + 0.045 * cmp_
    sh = 1 + 0.015 * cmp_ * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )


def distance(a: str, b: str, vision: str) -> float:
    """ΔE00 between two colours as a person with `vision` sees them."""
    return delta_e00(lab(simulate(a, vision)), lab(simulate(b, vision)))
