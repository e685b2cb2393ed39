"""The file formats a drawing is written in: SVG as the renderers make it, or PNG rasterised from it."""

from __future__ import annotations

import enum
from pathlib import Path

from gameproof.errors import BadInput


class ImageFormat(enum.StrEnum):
    """A drawing's file format, named as its file's suffix."""

    SVG = "svg"
    PNG = "png"

    @classmethod
    def of_file(cls, path: str) -> ImageFormat:
        """The format `path`'s suffix names (``board.png``: PNG, in any case); BadInput listing the formats when
        it names none."""
        suffix = Path(path).suffix.lower()
        try:
            return cls(suffix.removeprefix("."))
        except ValueError:
            names = " or ".join(f".{image.value}" for image in cls)
            raise BadInput(f"cannot tell the format of {path} by its suffix ({suffix or 'none'}): name a file ending "
                           f"in {names}, or say which with --format") from None

    def encode(self, svg: str) -> bytes:
        """The bytes of the file that holds the drawing `svg` in this format."""
        if self is ImageFormat.PNG:
            from gameproof.render.png import svg_to_png

            return svg_to_png(svg)
        return svg.encode("utf-8")
