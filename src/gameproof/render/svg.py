"""A few SVG building blocks shared by the board renderers."""

from __future__ import annotations

from html import escape

FONT = "sans-serif"


def document(width: int, height: int, parts: list[str], background: str = "#f4f1e8") -> str:
    """A standalone SVG document of ``parts`` on a plain background."""
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}">',
        f'<rect width="{width}" height="{height}" fill="{background}"/>',
        *parts,
        "</svg>",
    ]) + "\n"


def _extra(attributes: dict[str, str]) -> str:
    """Further attributes, their Python names' underscores written as dashes (``stroke_width``)."""
    return "".join(f' {name.replace("_", "-")}="{value}"' for name, value in attributes.items())


def line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#333", width: float = 1) -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" stroke-width="{width}"/>'


def rect(x: float, y: float, width: float, height: float, fill: str, **attributes: str) -> str:
    return f'<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="{fill}"{_extra(attributes)}/>'


def circle(cx: float, cy: float, r: float, fill: str, **attributes: str) -> str:
    return f'<circle cx="{cx}" cy="{cy}" r="{r:.1f}" fill="{fill}"{_extra(attributes)}/>'


def text(x: float, y: float, content: str, size: int = 13, fill: str = "#333", **attributes: str) -> str:
    """Text centred on (x, y)."""
    return (f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" text-anchor="middle" '
            f'dominant-baseline="central"{_extra(attributes)}>{escape(content)}</text>')


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = "#d05a00") -> str:
    """A line from (x1, y1) to (x2, y2) with an arrowhead at its end (drawn as a small triangle)."""
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-9)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head, half = 10.0, 5.0
    bx, by = x2 - ux * head, y2 - uy * head
    corners = f"{x2:.1f},{y2:.1f} {bx - uy * half:.1f},{by + ux * half:.1f} {bx + uy * half:.1f},{by - ux * half:.1f}"
    return (f'<g class="arrow"><line x1="{x1:.1f}" y1="{y1:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{colour}" '
            f'stroke-width="3" stroke-linecap="round"/><polygon points="{corners}" fill="{colour}"/></g>')
