"""The package's PEP 517 build backend: standard library only, so that
``pip install ./clients/python`` works offline in a fresh ``python3 -m venv`` (no
setuptools, no ``wheel``), with or without ``--no-build-isolation``. It writes only into
the folders pip gives it: nothing (no build/, no egg-info) in the checkout.

The wheel is pure Python: the ``pickerd_client`` folder, as it is, plus its dist-info from
pyproject.toml's [project] table (name, version, summary, requires-python)."""

import base64
import hashlib
import os
import re
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "pickerd_client"
TAG = "py3-none-any"
# Fixed times make the same source give the same wheel bytes.
EPOCH = (1980, 1, 1, 0, 0, 0)


def _project():
    """name, version, description, requires-python of pyproject.toml's [project]."""
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = re.search(r"^\[project\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    fields = dict(re.findall(r'^([a-z-]+)\s*=\s*"([^"]*)"', table.group(1) if table else "", re.M))
    for key in ("name", "version"):
        if key not in fields:
            raise ValueError("pyproject.toml: [project] has no %s" % key)
    return fields


def _dist_name(fields):
    return re.sub(r"[-_.]+", "_", fields["name"]).lower() + "-" + fields["version"]


def _metadata(fields):
    lines = ["Metadata-Version: 2.1", "Name: " + fields["name"], "Version: " + fields["version"]]
    if fields.get("description"):
        lines.append("Summary: " + fields["description"])
    if fields.get("requires-python"):
        lines.append("Requires-Python: " + fields["requires-python"])
    lines.append("License: MIT")
    readme = os.path.join(HERE, "README.md")
    body = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _package_files():
    """(path in the wheel, bytes) of every file of the package, sorted; no caches."""
    out = []
    root = os.path.join(HERE, PACKAGE)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out.append((os.path.relpath(path, HERE).replace(os.sep, "/"), f.read()))
    return out


def _write_wheel(wheel_directory, files):
    fields = _project()
    dist = _dist_name(fields)
    info = dist + ".dist-info"
    entries = list(files) + [
        (info + "/METADATA", _metadata(fields).encode()),
        (info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: pickerd_build\nRoot-Is-Purelib: true\n"
                           "Tag: %s\n" % TAG).encode()),
        (info + "/top_level.txt", (PACKAGE + "\n").encode()),
    ]
    record = []
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (name, digest, len(data)))
    record.append(info + "/RECORD,,")
    entries.append((info + "/RECORD", ("\n".join(record) + "\n").encode()))
    filename = "%s-%s.whl" % (dist, TAG)
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            entry = zipfile.ZipInfo(name, EPOCH)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    return filename


# --- PEP 517 / PEP 660 hooks --------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel holding one .pth file that puts this folder on sys.path (pip install -e)."""
    return _write_wheel(wheel_directory, [(PACKAGE + ".pth", (HERE + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    import tarfile
    fields = _project()
    base = _dist_name(fields)
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        for rel in ["pyproject.toml", "README.md", "build_backend/pickerd_build.py"]:
            tar.add(os.path.join(HERE, rel), base + "/" + rel)
        for rel, _ in _package_files():
            tar.add(os.path.join(HERE, rel), base + "/" + rel)
        pkg_info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata(fields).encode()
        pkg_info.size = len(data)
        import io
        tar.addfile(pkg_info, io.BytesIO(data))
    return filename
