"""Short sound effects made by the project itself: synthesised at start with ``math`` and ``array`` (no files).

The sounds are the project's own work (generated here, no samples), under the project's licence
(see ``assets/sounds/LICENSE``). :class:`SoundBoard` opens the mixer when the App starts; when there is no
audio device (a server, CI with ``SDL_AUDIODRIVER=dummy`` failing, a machine without sound) the mixer error is
caught and every ``play`` does nothing, so the window always starts. Sounds follow the ``sound`` setting
(read through a callable each time, so turning it off takes effect at once).

Nothing happens at import time: the mixer is opened and the sounds made by :meth:`SoundBoard.start`.
"""

from __future__ import annotations

import array
import math
import random
from collections.abc import Callable
from typing import Any

import pygame

RATE = 22050
"""Sample rate the sounds are made at (Hz); resampled by nothing: the mixer is asked for this rate."""
VOLUME = 0.35
"""Master volume of every effect (0..1)."""

Tone = tuple[float, float, float]
"""One note: (frequency in Hz, start in seconds, length in seconds)."""


def _envelope(i: int, n: int, attack: int) -> float:
    """A click-free envelope: a short linear attack, then an exponential decay to silence at ``n``."""
    if i < attack:
        return i / attack
    x = (i - attack) / max(1, n - attack)
    return math.exp(-4.0 * x) * (1.0 - x)


def synth(tones: list[Tone], *, noise: float = 0.0, rate: int = RATE, seed: int = 7) -> array.array[int]:
    """Mono signed 16-bit samples of ``tones`` (sine plus a little second harmonic) and optional noise.

    Args:
        tones: the notes, possibly overlapping.
        noise: amount (0..1) of white noise shaped by the same envelope (dice rattle).
        rate: samples per second.
        seed: seed of the noise generator (the sounds are the same on every start).

    Returns:
        The samples (``array('h')``), peak-normalised to :data:`VOLUME`.
    """
    end = max((start + length for _, start, length in tones), default=0.05)
    n = max(1, int(end * rate))
    buf = [0.0] * n
    rng = random.Random(seed)
    for freq, start, length in tones:
        a, m = int(start * rate), max(1, int(length * rate))
        attack = max(1, int(0.004 * rate))
        for i in range(m):
            if a + i >= n:
                break
            t = i / rate
            wave = math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(4 * math.pi * freq * t)
            if noise:
                wave = (1 - noise) * wave + noise * (rng.random() * 2 - 1) * 1.6
            buf[a + i] += wave * _envelope(i, m, attack)
    peak = max(1e-9, max(abs(v) for v in buf))
    scale = 32767 * VOLUME / peak
    return array.array("h", (int(v * scale) for v in buf))


_CACHE: dict[tuple[str, int], array.array[int]] = {}


def _cached_synth(name: str, rate: int) -> array.array[int]:
    """The samples of the effect ``name`` at ``rate`` (made once per process: a second App starts faster)."""
    key = (name, rate)
    if key not in _CACHE:
        tones, noise = RECIPES[name]
        _CACHE[key] = synth(tones, noise=noise, rate=rate)
    return _CACHE[key]


_FRAMES: dict[tuple[str, int, int], bytes] = {}


def _cached_frames(name: str, rate: int, channels: int) -> bytes:
    """The 16-bit frames of the effect ``name`` at ``rate`` with each sample repeated for ``channels`` channels
    (made once per process, as :func:`_cached_synth`: interleaving 0.3 s of samples in Python took 30 ms a window)."""
    key = (name, rate, channels)
    if key not in _FRAMES:
        mono = _cached_synth(name, rate)
        data = array.array("h", (v for v in mono for _ in range(channels))) if channels > 1 else mono
        _FRAMES[key] = data.tobytes()
    return _FRAMES[key]


def _rattle() -> list[Tone]:
    """Dice: a few short knocks."""
    return [(180 + 40 * k, 0.045 * k, 0.05) for k in range(5)]


RECIPES: dict[str, tuple[list[Tone], float]] = {
    "move": ([(660.0, 0.0, 0.07), (990.0, 0.0, 0.05)], 0.0),
    "ai_move": ([(520.0, 0.0, 0.08), (780.0, 0.0, 0.05)], 0.0),
    "capture": ([(440.0, 0.0, 0.06), (330.0, 0.06, 0.1)], 0.15),
    "dice": (_rattle(), 0.6),
    "win": ([(523.25, 0.0, 0.14), (659.25, 0.11, 0.14), (783.99, 0.22, 0.16), (1046.5, 0.34, 0.3)], 0.0),
    "draw": ([(440.0, 0.0, 0.18), (440.0, 0.2, 0.22)], 0.0),
    "error": ([(196.0, 0.0, 0.18), (185.0, 0.16, 0.24)], 0.05),
    "hint": ([(880.0, 0.0, 0.12), (1318.5, 0.08, 0.18)], 0.0),
}
"""Sound name -> (notes, noise amount)."""


class SoundBoard:
    """The App's sound effects.

    Args:
        enabled: returns the current ``sound`` setting (called on every :meth:`play`).

    Attributes:
        available: True once the mixer opened and the sounds were made.
        problem: why sound is off (no device...), or ``None``.
        played: names of the effects played so far (tests, and ``bench``), newest last (at most 50 kept).
    """

    def __init__(self, enabled: Callable[[], bool] | None = None) -> None:
        self.enabled = enabled or (lambda: True)
        self.available = False
        self.problem: str | None = None
        self.played: list[str] = []
        self._sounds: dict[str, Any] = {}

    def start(self) -> bool:
        """Open the mixer (mono is not assumed: samples are duplicated per channel) and synthesise the effects.

        Returns:
            True when sound works; False (with :attr:`problem` set) when there is no usable audio device.
        """
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            init = pygame.mixer.get_init()
            if init is None:
                raise pygame.error("the mixer did not open")
            freq, size, channels = init
            if size != -16:
                pygame.mixer.quit()
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
                init = pygame.mixer.get_init()
                if init is None or init[1] != -16:
                    raise pygame.error(f"unsupported mixer format {init}")
                freq, size, channels = init
            for name in RECIPES:
                self._sounds[name] = pygame.mixer.Sound(buffer=_cached_frames(name, freq, channels))
        except (pygame.error, NotImplementedError, ImportError, ValueError, OSError) as e:
            self.problem = f"no sound: {e}"
            self._sounds = {}
            self.available = False
            return False
        self.available = True
        return True

    def play(self, name: str) -> bool:
        """Play the effect ``name`` if sound is on and works. Returns True when it was started."""
        if not self.enabled():
            return False
        self.played.append(name)
        del self.played[:-50]
        sound = self._sounds.get(name)
        if sound is None:
            return False
        try:
            sound.play()
        except pygame.error:
            return False
        return True

    def on_event(self, event: pygame.event.Event, scene: Any) -> None:
        """React to ``MOVE_PLAYED`` / ``AI_ERROR`` (see :mod:`gameplay.ui.widgets.events`) shown in ``scene``."""
        from gameplay.ui.widgets import events
        if events.is_event(event, "AI_ERROR"):
            self.play("error")
            return
        if not events.is_event(event, "MOVE_PLAYED"):
            return
        record = getattr(scene, "record", None)
        outcome = record.outcome() if record is not None else None
        if outcome is not None:
            self.play("draw" if outcome.winner is None else "win")
        elif getattr(event, "by", "") == "chance":
            self.play("dice")
        elif "x" in str(getattr(event, "move", "")):
            self.play("capture")
        else:
            self.play("ai_move" if getattr(event, "by", "") == "ai" else "move")

    def stop(self) -> None:
        """Stop every playing effect (leaving a scene, closing)."""
        if self.available:
            try:
                pygame.mixer.stop()
            except pygame.error:
                pass
