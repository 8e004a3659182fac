"""A PEP 517 build backend for shadebox_agent, standard library only, so that ``pip install ./python`` builds
offline. It makes a pure-Python wheel of the ``shadebox_agent`` package (PEP 427), an sdist (PEP 517), and an
editable wheel (PEP 660: a ``.pth`` file naming this folder). The metadata comes from pyproject.toml's
``[project]`` table, read with a small parser of its ``key = "value"`` lines (tomllib is not in Python < 3.11).
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "shadebox_agent"
TAG = "py3-none-any"
# Fixed timestamps make the archives reproducible (1980-01-01, the earliest a zip can hold).
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _project():
    """``name``, ``version``, ``description``, ``requires-python`` and ``readme`` of ``[project]``."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if section is None:
        raise RuntimeError("pyproject.toml has no [project] table")
    fields = dict(re.findall(r'^([\w-]+)\s*=\s*"([^"]*)"\s*$', section.group(1), re.M))
    for key in ("name", "version"):
        if key not in fields:
            raise RuntimeError("pyproject.toml [project] needs " + key)
    return fields


def _dist_name(project):
    return re.sub(r"[-_.]+", "_", project["name"]).lower() + "-" + project["version"]


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + project["name"],
        "Version: " + project["version"],
        "License: MIT",
    ]
    if "description" in project:
        lines.append("Summary: " + project["description"])
    if "requires-python" in project:
        lines.append("Requires-Python: " + project["requires-python"])
    readme = project.get("readme")
    body = ""
    if readme:
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = f.read()
        lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + body


def _package_files():
    """The package's .py files, as (path in the archive, path on disk), sorted."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                out.append((os.path.relpath(path, ROOT).replace(os.sep, "/"), path))
    return out


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def _write_wheel(wheel_directory, entries):
    """Writes a wheel of ``entries`` (arcname → bytes) with its dist-info; returns its file name."""
    project = _project()
    dist = _dist_name(project)
    info = dist + ".dist-info"
    entries = dict(entries)
    entries[info + "/METADATA"] = _metadata(project).encode("utf-8")
    entries[info + "/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: shadebox_build\nRoot-Is-Purelib: true\nTag: " + TAG + "\n"
    ).encode("utf-8")
    entries[info + "/top_level.txt"] = (PACKAGE + "\n").encode("utf-8")
    record = [_record_line(name, data) for name, data in entries.items()]
    record.append(info + "/RECORD,,")
    entries[info + "/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    filename = dist + "-" + TAG + ".whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(zipfile.ZipInfo(name, ZIP_TIME), data, zipfile.ZIP_DEFLATED)
    return filename


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    entries = {}
    for arcname, path in _package_files():
        with open(path, "rb") as f:
            entries[arcname] = f.read()
    return _write_wheel(wheel_directory, entries)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    pth = (ROOT + "\n").encode("utf-8")
    return _write_wheel(wheel_directory, {"__editable__." + PACKAGE + ".pth": pth})


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    dist = _dist_name(project)
    files = ["pyproject.toml", "README.md"] + [a for a, _ in _package_files()]
    for folder, _, names in os.walk(os.path.join(ROOT, "build_backend")):
        files += [
            os.path.relpath(os.path.join(folder, n), ROOT).replace(os.sep, "/")
            for n in sorted(names)
            if n.endswith(".py")
        ]
    filename = dist + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        pkg_info = _metadata(project).encode("utf-8")
        members = [(dist + "/PKG-INFO", pkg_info)]
        for rel in files:
            with open(os.path.join(ROOT, rel), "rb") as f:
                members.append((dist + "/" + rel, f.read()))
        for name, data in members:
            member = tarfile.TarInfo(name)
            member.size = len(data)
            member.mtime = 315532800
            member.mode = 0o644
            tar.addfile(member, io.BytesIO(data))
    return filename
