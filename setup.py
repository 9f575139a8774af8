"""Build step of ``pip install .`` and of ``pip install -r requirements.txt`` (editable): the hot modules compiled
with mypyc, and the files the program reads beside its code.

``pyproject.toml`` declares the project (its packages, dependencies, extras and the ``arcade`` command); this file
adds what a declaration cannot say:

* the compiled modules (below);
* the shipped data (``gameplay.rules.shipped.SHIPPED``: ``assets/``, the agent-file templates, the ladder data),
  which live at the project's root in a checkout; a wheel has no such root, so :class:`BuildPy` copies them into
  the package as ``gameplay/shipped/``, where :func:`gameplay.rules.shipped.shipped_path` finds them. An editable
  install reads them from the checkout and copies nothing.

The compiled modules: the search and the checkers rules are plain typed Python (``mypy --strict``); mypyc (part of
mypy) compiles the same source to C extension modules, which Python then imports instead of the ``.py`` files
beside them (an extension module in a package folder takes precedence over the source of the same name). So the
code a student reads is the code that runs, only faster.

The build is optional: without a C compiler (``CC`` names a missing program, or none is installed), or with
``ARCADE_PURE=1``, nothing is compiled, the install still succeeds and the program runs the pure-Python source
(``gameplay.rules.compiled.status_line`` says which in the window and in ``bench``). A module that fails to compile is
skipped the same way (``Extension.optional``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gameplay.rules.compiled import COMPILED_MODULES  # noqa: E402  (the one list: the window's notice reads it too)
from gameplay.rules.shipped import SHIPPED  # noqa: E402  (the one list: the program reads them through it)


def _compiler() -> str | None:
    """The C compiler's program, when it exists on this machine (``CC`` first, then Python's own)."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    return shutil.which(words[0]) if words else None


def _extensions() -> list[object]:
    if os.environ.get("ARCADE_PURE"):
        print("adversarial-arcade: ARCADE_PURE is set; not compiling (pure Python)", file=sys.stderr)
        return []
    if _compiler() is None:
        print("adversarial-arcade: no C compiler found; not compiling (the program runs pure Python)",
              file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("adversarial-arcade: mypyc is not available; not compiling", file=sys.stderr)
        return []
    exts = mypycify(list(COMPILED_MODULES), opt_level="3", debug_level="0")
    for ext in exts:
        ext.optional = True  # a failed compile leaves the pure-Python module in charge
    return list(exts)


class AllOrNothing(build_ext):  # type: ignore[misc]
    """``build_ext`` that keeps the compiled modules only when every one of them built: mypyc puts the compiled
    code in one shared library and a small shim per module, and a shim without its library would fail to import."""

    def run(self) -> None:
        super().run()
        outputs = [self.get_ext_fullpath(ext.name) for ext in self.extensions]
        if outputs and not all(os.path.exists(p) for p in outputs):
            for p in outputs:
                if os.path.exists(p):
                    os.remove(p)
            print("adversarial-arcade: compiling failed; the program runs pure Python", file=sys.stderr)
            return
        self._mark_fresh(outputs)

    def _mark_fresh(self, outputs: list[str]) -> None:
        """Give every compiled file of this build the time of now, the copies in the source tree too (an inplace or
        editable build) when they are this build's bytes. A shim whose bytes did not change is copied with its old
        time, and the program takes a compiled module older than its source for a stale one and runs pure Python
        (``gameplay.rules.compiled.stale_modules``)."""
        import filecmp

        here = os.path.dirname(os.path.abspath(__file__))
        for ext, built in zip(self.extensions, outputs):
            os.utime(built)
            copy = os.path.join(here, self.get_ext_filename(ext.name))
            if copy != built and os.path.exists(copy) and filecmp.cmp(copy, built, shallow=False):
                os.utime(copy)


class BuildPy(build_py):  # type: ignore[misc]
    """``build_py`` that also copies :data:`SHIPPED` into the built package as ``gameplay/shipped/`` (not in an
    editable install, which reads them from the checkout)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = os.path.dirname(os.path.abspath(__file__))
        target = os.path.join(self.build_lib, "gameplay", "shipped")
        for rel in SHIPPED:
            source = os.path.join(here, *rel.split("/"))
            dest = os.path.join(target, *rel.split("/"))
            if os.path.isdir(source):
                self.copy_tree(source, dest)
            else:
                self.mkpath(os.path.dirname(dest))
                self.copy_file(source, dest)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        out = list(super().get_outputs(include_bytecode))
        if getattr(self, "editable_mode", False):
            return out
        here = os.path.dirname(os.path.abspath(__file__))
        for rel in SHIPPED:
            source = os.path.join(here, *rel.split("/"))
            files = ([os.path.join(d, f) for d, _dirs, names in os.walk(source) for f in names]
                     if os.path.isdir(source) else [source])
            out += [os.path.join(self.build_lib, "gameplay", "shipped", os.path.relpath(f, here)) for f in files]
        return out


setup(ext_modules=_extensions(), cmdclass={"build_ext": AllOrNothing, "build_py": BuildPy})
