"""Draw the web app's icons once (src/mauseloch/web/icons/*.png, committed): a mouse peeking from
its hole over a playing card, on the table's green felt.

    .venv/bin/python scripts/make_icons.py

Pillow comes with matplotlib, a dependency. The drawing is made at 1024 px and scaled down, so the
edges stay smooth. The maskable icons keep everything inside the central circle of 80 % (the
"safe zone" a phone may crop to), with the felt reaching every edge; the others are the same picture
on a rounded square, which browsers show as it is.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "src" / "mauseloch" / "web" / "icons"
FELT = (31, 90, 68)  # --felt in style.css, also the manifest's theme colour
CARD = (255, 253, 248)
INK = (29, 29, 31)
RED = (163, 17, 29)
MOUSE = (150, 150, 158)
EAR = (232, 170, 180)
BIG = 1024


def picture(scale: float) -> Image.Image:
    """The picture on a full square of felt; ``scale`` shrinks the motif towards the centre."""
    img = Image.new("RGB", (BIG, BIG), FELT)
    d = ImageDraw.Draw(img)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        c = BIG / 2
        return (c + (x0 - c) * scale, c + (y0 - c) * scale, c + (x1 - c) * scale, c + (y1 - c) * scale)

    # a card standing up: white with a red heart in its corner
    edge = max(2, int(10 * scale))
    d.rounded_rectangle(box(300, 170, 724, 760), radius=int(48 * scale), fill=CARD, outline=INK, width=edge)
    d.ellipse(box(340, 210, 400, 270), fill=RED)
    d.ellipse(box(380, 210, 440, 270), fill=RED)
    d.polygon([box(340, 245, 0, 0)[:2], box(440, 245, 0, 0)[:2], box(390, 315, 0, 0)[:2]], fill=RED)
    # the mouse hole at the card's foot, and the mouse looking out of it
    d.pieslice(box(250, 600, 774, 1124), 180, 360, fill=INK)
    d.ellipse(box(330, 520, 470, 660), fill=MOUSE)  # ears
    d.ellipse(box(554, 520, 694, 660), fill=MOUSE)
    d.ellipse(box(365, 555, 435, 625), fill=EAR)
    d.ellipse(box(589, 555, 659, 625), fill=EAR)
    d.ellipse(box(400, 580, 624, 804), fill=MOUSE)  # head
    d.ellipse(box(450, 650, 490, 690), fill=INK)  # eyes
    d.ellipse(box(534, 650, 574, 690), fill=INK)
    d.ellipse(box(492, 715, 532, 755), fill=RED)  # nose
    return img


def rounded(img: Image.Image) -> Image.Image:
    """The picture on a rounded square with transparent corners."""
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, *img.size), radius=img.size[0] // 5, fill=255)
    out = img.convert("RGBA")
    out.putalpha(mask)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    plain = rounded(picture(1.0))
    maskable = picture(0.78)  # the motif spans ~75 % of the side: inside the 80 % safe circle
    for size in (192, 512):
        plain.resize((size, size), Image.LANCZOS).save(OUT / f"icon-{size}.png", optimize=True)
        maskable.resize((size, size), Image.LANCZOS).save(OUT / f"icon-maskable-{size}.png", optimize=True)
    # iOS rounds the corners itself and shows transparency as black: the full square
    picture(0.9).resize((180, 180), Image.LANCZOS).save(OUT / "apple-touch-icon.png", optimize=True)
    plain.resize((32, 32), Image.LANCZOS).save(OUT / "favicon-32.png", optimize=True)


if __name__ == "__main__":
    main()
