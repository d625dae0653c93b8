"""An in-tree PEP 517 backend: packs src/corpus_units into a wheel with the standard library
alone, so `pip install .` works without setuptools' wheel support and without the network."""

import base64
import hashlib
import os
import zipfile

NAME, VERSION = "corpus_units", "0.1.0"
DIST_INFO = f"{NAME}-{VERSION}.dist-info"


def _record(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = {}
    for root, _, names in os.walk(os.path.join("src", NAME)):
        for name in sorted(n for n in names if n.endswith(".py")):
            full = os.path.join(root, name)
            with open(full, "rb") as f:
                files[os.path.relpath(full, "src").replace(os.sep, "/")] = f.read()
    files[f"{DIST_INFO}/METADATA"] = f"Metadata-Version: 2.1\nName: corpus-units\nVersion: {VERSION}\n".encode()
    files[f"{DIST_INFO}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: corpus_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    lines = [_record(path, data) for path, data in files.items()] + [f"{DIST_INFO}/RECORD,,"]
    files[f"{DIST_INFO}/RECORD"] = ("\n".join(lines) + "\n").encode()
    wheel = f"{NAME}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w") as zf:
        for path, data in files.items():
            zf.writestr(path, data)
    return wheel
