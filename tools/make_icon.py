"""Draw the application icon (``assets/icon.png``, 256x256) with pygame: a checkers king, an X and a die."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402


def draw(size: int = 256) -> pygame.Surface:
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(s, (24, 28, 40), s.get_rect(), border_radius=size // 6)
    u = size / 256
    # checkers king
    c = (int(104 * u), int(150 * u))
    pygame.draw.circle(s, (120, 20, 30), (c[0], c[1] + int(8 * u)), int(70 * u))
    pygame.draw.circle(s, (213, 60, 60), c, int(70 * u))
    pygame.draw.circle(s, (240, 120, 110), c, int(52 * u), int(6 * u))
    crown = [(c[0] - 34 * u, c[1] + 14 * u), (c[0] - 40 * u, c[1] - 22 * u), (c[0] - 16 * u, c[1] - 2 * u),
             (c[0], c[1] - 32 * u), (c[0] + 16 * u, c[1] - 2 * u), (c[0] + 40 * u, c[1] - 22 * u),
             (c[0] + 34 * u, c[1] + 14 * u)]
    pygame.draw.polygon(s, (245, 200, 70), crown)
    # X
    for a, b in (((160, 36), (222, 98)), ((222, 36), (160, 98))):
        pygame.draw.line(s, (86, 180, 233), (a[0] * u, a[1] * u), (b[0] * u, b[1] * u), int(16 * u))
    # die
    d = pygame.Rect(int(158 * u), int(150 * u), int(72 * u), int(72 * u))
    pygame.draw.rect(s, (240, 240, 240), d, border_radius=int(12 * u))
    for px, py in ((0.28, 0.28), (0.5, 0.5), (0.72, 0.72)):
        pygame.draw.circle(s, (30, 30, 30), (d.x + int(px * d.w), d.y + int(py * d.h)), int(7 * u))
    return s


if __name__ == "__main__":
    pygame.init()
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "assets" / "icon.png"
    pygame.image.save(draw(), str(out))
    print(f"wrote {out}")
