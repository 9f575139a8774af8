"""What the one-folder app bundles, read from the program itself (``packaging/arcade.spec`` uses this module).

Standard library only, so the tests check it without PyInstaller (``tests/test_packaging.py``):

* :func:`project_modules`: every module of the project's packages (:data:`PACKAGES`), found on disk the way Python
  finds them (:func:`pkgutil.iter_modules`: sources and compiled extension modules alike). The subcommands
  (``gameplay.cli.COMMAND_MODULES``), the games of the registry and the window's scenes are imported by name at run
  time, which PyInstaller cannot follow; listing every module makes the app whole whatever is added later.
* :func:`hidden_imports`: those, ``COMMAND_MODULES``, the mypyc shared library of a compiled checkout (``setup.py``;
  the compiled modules import it by name) and the standard library an agent file may import (:func:`agent_stdlib`).
* :func:`data_files`: the files the code reads beside itself (``assets/``, the window's theme, the agent-file
  templates, the exercise templates, the example game files, the ladder data of ``plot ladder``).
* :data:`EXCLUDES`: GUI toolkits, test tools and scipy, which the app never uses (matplotlib draws on its Agg canvas
  only).
* :func:`without_debug_info`: the binaries, those with DWARF debug sections stripped of them (a Python built from
  source keeps them: 34 MiB of the folder otherwise).
"""

from __future__ import annotations

import glob
import importlib.machinery
import importlib.util
import os
import pkgutil
import shutil
import struct
import subprocess
import sys

APP_NAME = "adversarial-arcade"
"""The app's folder and program name (``dist/adversarial-arcade/adversarial-arcade``)."""
PACKAGES = ("ai", "gameplay")
"""The project's import packages (``gameplay`` holds ``gameplay.rules`` and ``gameplay.ui``)."""
DATA = (
    ("assets", "assets"),
    (os.path.join("gameplay", "ui", "theme.json"), os.path.join("gameplay", "ui")),
    (os.path.join("examples", "agents"), os.path.join("examples", "agents")),
    (os.path.join("examples", "exercises"), os.path.join("examples", "exercises")),
    (os.path.join("examples", "games"), os.path.join("examples", "games")),
    (os.path.join("docs", "figures", "ladder.csv"), os.path.join("docs", "figures")),
)
"""(path in the checkout, folder in the app) of each data file or folder the code reads beside itself."""
EXCLUDES = (
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "test", "lib2to3", "ensurepip", "venv", "pydoc_data",
    "PyQt5", "PyQt6", "PySide2", "PySide6", "gi", "wx", "IPython", "pytest", "hypothesis", "mypy", "ruff",
    "setuptools", "pip", "scipy",
)
"""Modules never bundled: GUI toolkits (matplotlib's other backends would pull them in), test and build tools, and
scipy (72 MiB: the program does not use it, the ratings' fit is numpy's; networkx and others import it optionally)."""
NOT_FOR_AGENT_FILES = frozenset(EXCLUDES) | {
    "antigravity", "this", "pydoc", "doctest", "unittest", "xmlrpc", "wsgiref", "http", "smtplib", "imaplib",
    "poplib", "ftplib", "nntplib", "telnetlib", "mailbox", "cgi", "cgitb", "sqlite3", "dbm", "curses", "readline",
    "tty", "pty", "crypt", "spwd", "nis", "ossaudiodev", "audioop", "aifc", "sunau", "wave", "chunk", "sndhdr",
    "imghdr", "mailcap", "msilib", "msvcrt", "winreg", "winsound", "_winapi", "nturl2path", "zipapp", "webbrowser",
}
"""Standard-library modules not offered to agent files: network servers and clients, databases, the terminal,
sound and platform-specific modules (an agent picks a move; it has no use for them)."""
FIGURE_WRITERS = ("matplotlib.backends.backend_agg", "matplotlib.backends.backend_svg")
"""matplotlib's writers of the figures' file formats (PNG, SVG), which ``savefig`` imports by name."""
UNUSED_FONTS = ("NotoSansArabic", "NotoSansGeorgian", "NotoSansHebrew", "NotoSansJP", "NotoSansKR", "NotoSansSC")
"""pygame_gui's fonts for scripts the arcade never shows (37.6 MiB of pygame_gui 0.6.14)."""


def project_modules(root: str) -> list[str]:
    """Every module and package of :data:`PACKAGES` under ``root`` (dotted names, sorted), sources and compiled
    extension modules alike; nothing is imported. Folders without ``__init__.py`` (``__pycache__``) are not
    packages and are skipped."""
    out: set[str] = set()

    def walk(folder: str, name: str) -> None:
        out.add(name)
        for info in pkgutil.iter_modules([folder], prefix=name + "."):
            out.add(info.name)
            if info.ispkg:
                walk(os.path.join(folder, info.name.rpartition(".")[2]), info.name)

    for package in PACKAGES:
        folder = os.path.join(root, package)
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            raise FileNotFoundError(f"{folder} is not a package (no __init__.py)")
        walk(folder, package)
    return sorted(out)


def mypyc_libraries(root: str) -> list[str]:
    """The module names of the mypyc shared libraries at ``root`` (``5af9...__mypyc``) built for this Python; none in
    a pure-Python checkout."""
    names = set()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in glob.glob(os.path.join(root, "*__mypyc" + suffix)):
            names.add(os.path.basename(path)[: -len(suffix)])
    return sorted(names)


def command_modules(root: str) -> tuple[str, ...]:
    """``gameplay.cli.COMMAND_MODULES`` of the checkout at ``root`` (the modules that add subcommands)."""
    if root not in sys.path:
        sys.path.insert(0, root)
    from gameplay.cli import COMMAND_MODULES
    return tuple(COMMAND_MODULES)


def agent_stdlib() -> list[str]:
    """The standard-library modules offered to agent files (``file:PATH.py`` runs in the app's own worker process,
    so it can import only what the app bundles): every top-level module of ``sys.stdlib_module_names`` that this
    Python has, but the private ones and :data:`NOT_FOR_AGENT_FILES`."""
    out = []
    for name in sorted(sys.stdlib_module_names):
        if name.startswith("_") or name in NOT_FOR_AGENT_FILES:
            continue
        if importlib.util.find_spec(name) is not None:
            out.append(name)
    return out


def hidden_imports(root: str) -> list[str]:
    """Every module the app must bundle that PyInstaller's import analysis of ``main.py`` cannot see (sorted)."""
    return sorted(set(project_modules(root)) | set(command_modules(root)) | set(mypyc_libraries(root))
                  | set(agent_stdlib()) | set(FIGURE_WRITERS))


def check_not_stale(root: str) -> None:
    """Refuse to build from compiled modules older than their source (the checkout runs the source then, and the app
    would run the old code: ``gameplay.rules.compiled.stale_modules``).

    Raises:
        SystemExit: with the one line saying so and what to do.
    """
    if root not in sys.path:
        sys.path.insert(0, root)
    from gameplay.rules.compiled import stale_modules
    stale = stale_modules()
    if stale:
        raise SystemExit(f"error: the compiled modules are older than their source ({', '.join(stale)}): run the "
                         "README's install command again, then build the app")


def data_files(root: str) -> list[tuple[str, str]]:
    """PyInstaller's ``datas``: (source path, folder in the app) of :data:`DATA`.

    Raises:
        FileNotFoundError: one of them is missing from the checkout.
    """
    out = []
    for source, target in DATA:
        path = os.path.join(root, source)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: the app bundles it, and it is missing")
        out.append((path, target))
    return out


def is_unused_data(path: str) -> bool:
    """True for a data file the app leaves out (:data:`UNUSED_FONTS`)."""
    return any(font in path for font in UNUSED_FONTS)


def elf_section_names(path: str) -> list[str]:
    """The section names of a 64-bit little-endian ELF file (Linux x86-64 and arm64 binaries); ``[]`` for any other
    file.

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, "rb") as f:
        ident = f.read(64)
        if len(ident) < 64 or ident[:4] != b"\x7fELF" or ident[4] != 2 or ident[5] != 1:
            return []
        shoff, = struct.unpack_from("<Q", ident, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", ident, 0x3A)
        if shoff == 0 or shnum == 0 or shstrndx >= shnum:
            return []
        f.seek(shoff)
        table = f.read(shentsize * shnum)
        headers = [table[i * shentsize:(i + 1) * shentsize] for i in range(shnum)]
        if len(headers[-1]) < 0x28:
            return []
        str_offset, str_size = struct.unpack_from("<QQ", headers[shstrndx], 0x18)
        f.seek(str_offset)
        names = f.read(str_size)
    out = []
    for h in headers:
        start = struct.unpack_from("<I", h, 0)[0]
        end = names.find(b"\0", start)
        out.append(names[start:end if end >= 0 else None].decode("ascii", "replace"))
    return out


def without_debug_info(binaries: list[tuple[str, str, str]], folder: str) -> list[tuple[str, str, str]]:
    """PyInstaller's ``a.binaries`` (dest name, source path, kind), each one that carries DWARF debug sections
    (``.debug_info``) replaced by a copy in ``folder`` stripped of them (``strip --strip-debug``: the code and the
    symbols stay). Only those: stripping every binary (PyInstaller's ``strip=True``) broke matplotlib's and
    scipy's libraries. Without ``strip`` (binutils) the binaries are kept as they are, said in one line."""
    tool = shutil.which("strip")
    if tool is None:
        print("app_contents: strip (binutils) is not installed: debug sections are kept (a larger folder)")
        return list(binaries)
    out = []
    for dest, source, kind in binaries:
        if ".debug_info" in elf_section_names(source):
            copy = os.path.join(folder, dest)
            if not (os.path.exists(copy) and os.path.getmtime(copy) >= os.path.getmtime(source)):
                os.makedirs(os.path.dirname(copy), exist_ok=True)
                shutil.copy2(source, copy)
                subprocess.run([tool, "--strip-debug", copy], check=True)
            source = copy
        out.append((dest, source, kind))
    return out
