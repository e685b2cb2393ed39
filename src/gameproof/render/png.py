"""PNG drawings: the SVG that gameproof's renderers write, rasterised with Pillow.

Pillow installs from wheels on any machine and carries its own font, so the text of a drawing (coordinates,
values, captions) appears even where no fonts or graphics libraries are installed. It draws the few SVG
elements the renderers use (``svg``, ``g``, ``rect``, ``circle``, ``line``, ``polygon``, ``text``) with their
presentation attributes, inherited as in SVG; any other element is refused rather than left out.
"""

from __future__ import annotations

import functools
import io
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageColor, ImageDraw, ImageFont

#: Pixels of the PNG per unit of the SVG: twice its size, sharp on high-density screens.
SCALE = 2
_SUPERSAMPLE = 3  # drawn this many times larger again, then averaged down: smooth edges
_NS = "{http://www.w3.org/2000/svg}"
#: The presentation attributes an element passes to its children, and their SVG defaults.
_INHERITED = {"fill": "#000", "fill-opacity": "1", "stroke": "none", "stroke-width": "1", "stroke-linecap": "butt",
              "font-size": "16", "font-weight": "normal", "text-anchor": "start", "dominant-baseline": "auto"}
_ANCHOR_X = {"start": "l", "middle": "m", "end": "r"}
_ANCHOR_Y = {"central": "m", "middle": "m", "auto": "s", "alphabetic": "s"}

Colour = tuple[int, int, int, int]


@dataclass(frozen=True)
class _Element:
    """One SVG element with the attributes it has or inherits, in pixels of the drawing being made."""

    node: ET.Element
    style: dict[str, str]  # its inherited presentation attributes, its own included
    scale: float  # pixels per SVG unit

    def length(self, name: str) -> float:
        """A coordinate or length attribute in pixels (0 when absent)."""
        return float(self.node.get(name, self.style.get(name, 0))) * self.scale

    def paint(self, name: str) -> Colour | None:
        """The colour of ``fill`` or ``stroke`` (with ``fill-opacity`` for a fill), None for ``none``."""
        value = self.style[name]
        if value == "none":
            return None
        opacity = float(self.style["fill-opacity"]) if name == "fill" else 1.0
        return (*ImageColor.getrgb(value)[:3], round(255 * opacity))

    def stroke_width(self) -> float:
        return self.length("stroke-width") if self.paint("stroke") else 0.0

    def box(self, x: float, y: float, right: float, bottom: float) -> list[float]:
        """The bounding box of a shape grown by half its stroke: Pillow draws an outline inside the box, SVG
        centres the stroke on the shape's edge."""
        half = self.stroke_width() / 2
        return [x - half, y - half, right + half, bottom + half]


def svg_to_png(svg: str) -> bytes:
    """The PNG of ``svg`` (a drawing by :mod:`gameproof.render`), :data:`SCALE` pixels per SVG unit."""
    root = ET.fromstring(svg)
    factor = SCALE * _SUPERSAMPLE
    width, height = (round(float(root.get(side, 0))) for side in ("width", "height"))
    image = Image.new("RGB", (width * factor, height * factor), "white")
    _draw_children(ImageDraw.Draw(image, "RGBA"), root, _style(root, _INHERITED), factor)
    out = io.BytesIO()
    image.reduce(_SUPERSAMPLE).save(out, "PNG")
    return out.getvalue()


def _style(node: ET.Element, inherited: dict[str, str]) -> dict[str, str]:
    return {name: node.get(name, value) for name, value in inherited.items()}


def _draw_children(draw: ImageDraw.ImageDraw, parent: ET.Element, style: dict[str, str], scale: float) -> None:
    for node in parent:
        tag = node.tag.removeprefix(_NS)
        element_style = _style(node, style)
        if tag == "g":
            _draw_children(draw, node, element_style, scale)
        elif tag in _SHAPES:
            _SHAPES[tag](draw, _Element(node, element_style, scale))
        else:
            raise ValueError(f"cannot draw the SVG element <{tag}> in a PNG")


def _rect(draw: ImageDraw.ImageDraw, rect: _Element) -> None:
    x, y = rect.length("x"), rect.length("y")
    draw.rectangle(rect.box(x, y, x + rect.length("width"), y + rect.length("height")), fill=rect.paint("fill"),
                   outline=rect.paint("stroke"), width=round(rect.stroke_width()))


def _circle(draw: ImageDraw.ImageDraw, circle: _Element) -> None:
    cx, cy, r = circle.length("cx"), circle.length("cy"), circle.length("r")
    draw.ellipse(circle.box(cx - r, cy - r, cx + r, cy + r), fill=circle.paint("fill"), outline=circle.paint("stroke"),
                 width=round(circle.stroke_width()))


def _line(draw: ImageDraw.ImageDraw, line: _Element) -> None:
    ends = [(line.length("x1"), line.length("y1")), (line.length("x2"), line.length("y2"))]
    colour, width = line.paint("stroke"), line.stroke_width()
    draw.line(ends, fill=colour, width=round(width))
    if line.style["stroke-linecap"] == "round":
        for x, y in ends:
            draw.ellipse([x - width / 2, y - width / 2, x + width / 2, y + width / 2], fill=colour)


def _polygon(draw: ImageDraw.ImageDraw, polygon: _Element) -> None:
    numbers = [float(n) * polygon.scale for n in polygon.node.get("points", "").replace(",", " ").split()]
    draw.polygon(list(zip(numbers[::2], numbers[1::2])), fill=polygon.paint("fill"), outline=polygon.paint("stroke"))


def _text(draw: ImageDraw.ImageDraw, text: _Element) -> None:
    size = text.length("font-size")
    bold = text.style["font-weight"] == "bold"
    anchor = _ANCHOR_X[text.style["text-anchor"]] + _ANCHOR_Y[text.style["dominant-baseline"]]
    draw.text((text.length("x"), text.length("y")), text.node.text or "", fill=text.paint("fill"), font=_font(size),
              anchor=anchor, stroke_width=round(size / 30) if bold else 0, stroke_fill=text.paint("fill"))


@functools.lru_cache(maxsize=None)
def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font (no font file on the machine needed) at ``size`` pixels."""
    return ImageFont.load_default(size)


_SHAPES: dict[str, Callable[[ImageDraw.ImageDraw, _Element], None]] = {
    "rect": _rect, "circle": _circle, "line": _line, "polygon": _polygon, "text": _text,
}
