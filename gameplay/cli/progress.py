"""Progress bars on standard error, one way for every command (tqdm): a live bar on a terminal; in a log (standard
error not a terminal) one plain line per tenth of the work, so a long run writes about ten lines, never thousands.

Used by ``match``, ``analyze`` (Pig's optimal policy), ``plot growth`` / ``plot pig-policy`` and
``tools/gauntlet.py``; imports no window code (a command-line module).
"""

from __future__ import annotations

import contextlib
import math
import sys
from typing import TYPE_CHECKING, Any, Iterator, TextIO

if TYPE_CHECKING:
    from tqdm import tqdm

LOG_LINES = 10
"""About how many lines a bar writes to a log (standard error not a terminal)."""


class _Lines:
    """The file a bar writes to in a log: each redraw becomes one line of its own (tqdm redraws in place with a
    carriage return, which a log keeps as one endless line), for a count not shown yet: nothing before the first
    step, and not the final count twice (tqdm draws it once more when it closes)."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self.bar: Any = None
        """The bar drawing here (set once it exists)."""
        self._shown = 0.0

    def write(self, text: str) -> int:
        line = text.replace("\r", "").rstrip()
        n = self.bar.n if self.bar is not None else 0
        if line and n != self._shown:
            self._out.write(line + "\n")
            self._shown = n
        return len(text)

    def flush(self) -> None:
        self._out.flush()


def bar(total: float | None, desc: str, unit: str, show: bool = True, **options: Any) -> tqdm[Any]:
    """An open tqdm bar on standard error (disabled, drawing nothing, when ``show`` is false).

    Args:
        total: the amount of work (``None``: not known; then a log gets a line per redraw).
        desc: the text before the bar. unit: what is counted (``game``, ``state``).
        show: false for ``--quiet``.
        options: more tqdm options (``unit_scale``, ``bar_format``, ``postfix``...).
    """
    from tqdm import tqdm
    kw: dict[str, Any]
    if sys.stderr.isatty():
        kw = {"file": sys.stderr, "dynamic_ncols": True}
    else:  # a redraw every tenth of the work, whatever the time between (tqdm's monitor never shortens it)
        kw = {"file": _Lines(sys.stderr), "mininterval": 0.0, "maxinterval": math.inf,
              "miniters": max(1, int(total or 0) // LOG_LINES)}
    kw.update(options)
    made = tqdm(total=total, desc=desc, unit=unit, disable=not show, **kw)
    if isinstance(kw["file"], _Lines):
        kw["file"].bar = made
    return made


@contextlib.contextmanager
def progress_bar(total: float | None, desc: str, unit: str, show: bool = True,
                 **options: Any) -> Iterator[tqdm[Any]]:
    """:func:`bar`, closed when the block ends. When the block raises (Ctrl+C, an error), the bar stays as last
    drawn with no line break, so the one-line message that follows (``interrupted after ...``) ends its line as
    before tqdm."""
    b = bar(total, desc, unit, show, **options)
    try:
        yield b
    except BaseException:
        b.disable = True  # close() now leaves it as drawn
        raise
    b.close()


class CountProgress:
    """A ``progress(done, total)`` callback that draws a bar: opened at the first call (when the total is known),
    closed when ``done`` reaches ``total`` (and by :meth:`close`)."""

    def __init__(self, desc: str, unit: str, show: bool = True, **options: Any) -> None:
        self._args = (desc, unit, show)
        self._options = options
        self._bar: tqdm[Any] | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self._bar = bar(total, *self._args, **self._options)
        self._bar.update(done - self._bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        """Close the bar (if one is open)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
