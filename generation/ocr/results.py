"""What reading an image gives back: lines of text and the blocks (one
caption each) they form, with where they are and how sure Tesseract was."""

from __future__ import annotations

from dataclasses import dataclass

from generation.ocr.geometry import Box


@dataclass(frozen=True)
class OcrLine:
    text: str
    box: Box  # upright rectangle around the text, turned or not
    confidence: float  # 0..100, mean over the line's words
    angle: float = 0.0  # degrees the text is turned counter-clockwise
    upright_size: tuple[int, int] = (0, 0)  # width and height were the text level, in image pixels


@dataclass(frozen=True)
class OcrBlock:
    text: str  # the block's lines joined by spaces
    bbox: Box
    lines: tuple[OcrLine, ...]

    @property
    def confidence(self) -> float:
        return sum(line.confidence for line in self.lines) / len(self.lines)

    @property
    def angle(self) -> float:
        return sum(line.angle for line in self.lines) / len(self.lines)

    @property
    def upright_size(self) -> tuple[int, int]:
        """The block's width and height were its text level: the widest line,
        and the lines' heights stacked."""
        return (
            max(line.upright_size[0] for line in self.lines),
            sum(line.upright_size[1] for line in self.lines),
        )
