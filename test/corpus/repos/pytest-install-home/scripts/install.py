"""Installs this package into the user site (~/.local), where the tests import it from.

Through this interpreter rather than the `pip` on PATH: pyenv's shims run `pyenv rehash` after any
`pip install` (even `python3 -m pip install`), which fails when the shims folder is read-only."""

import subprocess
import sys

sys.exit(
    subprocess.call(
        [sys.executable, "-m", "pip", "install", "--user", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "."]
    )
)
