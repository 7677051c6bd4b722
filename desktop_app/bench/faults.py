"""``paperclip bench faults``: kill imports and forgets at random points, run imports side by side,
count what broke.

Kill runs: a fresh database holding two turns; ``paperclip import`` of a generated transcript
in a subprocess, sent SIGKILL after a random delay (uniform over the time an uncut import takes
here); then the file's ``integrity_check``, whether the killed import stored all of its turns or
none, the same import again, and then duplicates and turns lost. Forget kill runs: a copy of a
database whose every 50th turn holds a secret, ``memory forget SECRET --yes`` killed the same
way, then run again: the forget must have deleted all or none, nothing else may be missing, and
after the second run no byte of the secret may be left in the file or its WAL (a leftover byte is
counted as a failure). Concurrency runs: two imports
of one file into one session at once, and two imports into different sessions at once.

With SQLCipher installed, two more: ``encrypt`` or ``decrypt`` started at a random point while an
import writes the same file (it must refuse while the import has it open; "cut" counts the
refusals, and no acknowledged turn may be lost), and ``encrypt``/``decrypt`` killed at a random
point, then an ordinary run: the file reads back whole and no converted copy (after ``decrypt``,
a plaintext one) is left ("leftovers").

Last, ``docs add`` of each full-size hostile document (``bench/hostile_docs.py``: zip bombs, a
billion laughs, PDF streams that inflate to 1 GB, 10⁶ nested divs …; ``--no-hostile`` skips it):
"integrity ok" counts the runs that said exactly one line about the file, and "peak MB" is the
largest peak memory of one run, its reader child included.

Counted: runs, kills that landed before the import finished (cut), integrity ok, duplicate
turns, acknowledged turns lost (turns of an import that exited 0 but are missing, or the two
turns stored before), partial imports (neither all nor none), tracebacks on stderr, and other
failures (a non-zero exit that is not the kill).
The subprocesses run without models (no embedding, ``memory_model`` off): this measures storing.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel

SEED_TURNS = 2


class FaultRow(BaseModel):
    scenario: str
    runs: int = 0
    cut: int = 0  # kill runs where the kill landed before the import finished
    integrity_ok: int = 0
    duplicates: int = 0
    acknowledged_lost: int = 0
    partial_imports: int = 0
    tracebacks: int = 0
    failures: int = 0
    leftovers: int = 0  # files a killed conversion left after the next run (a plaintext copy, its WAL)
    peak_mb: float | None = None  # the largest peak memory of one run (hostile documents)
    errors: list[str] = []  # the last stderr line of each run counted under failures


def register(subparsers):
    parser = subparsers.add_parser("faults", help="kill -9 imports at random points and race imports; count damage")
    parser.add_argument("--runs", type=int, default=20, help="kill runs (the concurrency runs are a quarter of it)")
    parser.add_argument("--turns", type=int, default=1500, help="turns in the imported transcript")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-hostile", dest="hostile", action="store_false",
                        help="skip the hostile-document row (full-size files: about a minute)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def write_transcript(path: Path, turns: int, prefix: str) -> None:
    lines = [json.dumps({"role": "user" if i % 2 == 0 else "assistant", "id": f"{prefix}{i}",
                         "content": f"turn {i}: note {i} about the harbour, budget {1000 + i} euros " + "w" * 120,
                         "time": 1_700_000_000 + i}) for i in range(turns)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


class Runner:
    """Runs ``paperclip`` subprocesses against files in one temporary folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        (folder / "no-models").mkdir(exist_ok=True)
        self.env = {**os.environ, "PAPERCLIP_HOME": str(folder / "home"), "PAPERCLIP_MEMORY_MODEL": "off",
                    "PAPERCLIP_MODELS_DIR": str(folder / "no-models")}
        self.tracebacks = 0
        self.last_error = ""  # the last stderr line of the last finished run

    def start(self, *args) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "desktop_app", *map(str, args)], env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def finish(self, process: subprocess.Popen) -> int:
        _, err = process.communicate()
        self.tracebacks += b"Traceback" in err
        self.last_error = _last_line(err)
        return process.returncode

    def run(self, *args) -> int:
        return self.finish(self.start(*args))


def _last_line(err: bytes) -> str:
    lines = err.decode(errors="replace").strip().splitlines()
    return lines[-1][-300:] if lines else ""


def _fail(row: FaultRow, failed: bool, message: str) -> None:
    """Count a failure and keep what the run said."""
    if failed:
        row.failures += 1
        row.errors.append(message or "(nothing on stderr)")


def _counts(db: Path) -> tuple[bool, int, int]:
    """(integrity ok, messages, duplicate ext_ids) of the file."""
    from desktop_app.memory.store import Store
    from desktop_app.memory.store.db import integrity_check

    ok = not integrity_check(db)
    with Store(db) as store:
        return ok, store.count_messages(), store.duplicate_ext_ids()


def _seeded(runner: Runner, name: str) -> Path:
    db = runner.folder / f"{name}.db"
    seed = runner.folder / "seed.jsonl"
    if not seed.exists():
        write_transcript(seed, SEED_TURNS, "seed-")
    process = runner.start("import", seed, "--db", db, "--session", "s")
    _, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"seeding {db.name} failed: {err.decode(errors='replace').strip()[-300:]}")
    return db


def kill_runs(runner: Runner, transcript: Path, turns: int, runs: int, rng: random.Random) -> FaultRow:
    row = FaultRow(scenario="kill -9 during import, then again")
    started = time.perf_counter()
    runner.run("import", transcript, "--db", _seeded(runner, "calibrate"), "--session", "s")
    uncut = time.perf_counter() - started
    for number in range(runs):
        db = _seeded(runner, f"kill{number}")
        process = runner.start("import", transcript, "--db", db, "--session", "s")
        time.sleep(rng.uniform(0, uncut))
        process.send_signal(signal.SIGKILL)
        code = runner.finish(process)
        ok, count, _ = _counts(db)
        row.runs += 1
        row.cut += code == -signal.SIGKILL
        expected = SEED_TURNS + (turns if code == 0 else 0)
        if count not in (SEED_TURNS, SEED_TURNS + turns):
            row.partial_imports += 1
        row.acknowledged_lost += max(0, expected - count)
        rerun = runner.run("import", transcript, "--db", db, "--session", "s")
        ok_after, count, duplicates = _counts(db)
        row.integrity_ok += ok and ok_after
        row.duplicates += duplicates
        _fail(row, rerun != 0, runner.last_error)
        if rerun == 0:
            row.acknowledged_lost += max(0, SEED_TURNS + turns - count)
    return row


SECRET = "QZ7741ARDWICK"


def _secret_rows(db: Path) -> tuple[int, int]:
    """(messages holding the secret, all messages), read directly."""
    from desktop_app.memory.store.sqlite_backend import sqlite

    conn = sqlite.connect(str(db))
    try:
        held = conn.execute("SELECT count(*) FROM messages WHERE instr(content, ?) > 0", (SECRET,)).fetchone()[0]
        return held, conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    finally:
        conn.close()


def _bytes_left(db: Path) -> int:
    return sum(p.read_bytes().count(SECRET.encode()) for p in (db, db.with_name(db.name + "-wal"))
               if p.exists())


def forget_kill_runs(runner: Runner, turns: int, runs: int, rng: random.Random) -> FaultRow:
    """``memory forget SECRET --yes`` killed at a random point, then run again: all or nothing,
    nothing else lost, and no byte of the secret left after the second run."""
    import shutil

    row = FaultRow(scenario="kill -9 during forget, then again")
    template = runner.folder / "forget-template.db"
    transcript = runner.folder / "forget.jsonl"
    lines = [json.dumps({"role": "user" if i % 2 == 0 else "assistant", "id": f"f{i}", "time": 1_700_000_000 + i,
                         "content": (f"my locker code is {SECRET}, turn {i}" if i % 50 == 0 else
                                     f"turn {i}: a note about the harbour " + "w" * 80)}) for i in range(turns)]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if runner.run("import", transcript, "--db", template, "--session", "s") != 0:
        raise RuntimeError("seeding the forget database failed")
    held, total = _secret_rows(template)
    args = ("memory", "forget", SECRET, "--yes", "--session", "s")
    calibrate = runner.folder / "forget-calibrate.db"
    shutil.copy(template, calibrate)
    started = time.perf_counter()
    runner.run(*args, "--db", calibrate)
    uncut = time.perf_counter() - started
    deleted = total - _secret_rows(calibrate)[1]  # the turns holding it and the replies after them
    for number in range(runs):
        db = runner.folder / f"forget{number}.db"
        shutil.copy(template, db)
        process = runner.start(*args, "--db", db)
        time.sleep(rng.uniform(0, uncut))
        process.send_signal(signal.SIGKILL)
        code = runner.finish(process)
        ok, _, _ = _counts(db)
        now_held, now_total = _secret_rows(db)
        row.runs += 1
        row.cut += code == -signal.SIGKILL
        if (now_held, now_total) not in ((held, total), (0, total - deleted)):
            row.partial_imports += 1
        rerun = runner.run(*args, "--db", db)  # 1 when the first run had finished: nothing matches
        ok_after, _, duplicates = _counts(db)
        row.integrity_ok += ok and ok_after
        row.duplicates += duplicates
        _fail(row, rerun not in (0, 1), runner.last_error)
        _fail(row, _bytes_left(db) > 0, f"{_bytes_left(db)} copies of the secret left in the file or its WAL")
        row.acknowledged_lost += max(0, total - deleted - _secret_rows(db)[1])
    return row


def concurrent_runs(runner: Runner, transcript: Path, turns: int, runs: int, *, same_session: bool) -> FaultRow:
    row = FaultRow(scenario="two imports at once, " + ("one session" if same_session else "two sessions"))
    other = runner.folder / "other.jsonl"
    if not other.exists():
        write_transcript(other, turns, "other-")
    for number in range(runs):
        db = _seeded(runner, f"race{int(same_session)}-{number}")
        second = (transcript, "s") if same_session else (other, "t")
        processes = [runner.start("import", transcript, "--db", db, "--session", "s"),
                     runner.start("import", second[0], "--db", db, "--session", second[1])]
        codes = []
        for process in processes:
            codes.append(runner.finish(process))
            _fail(row, codes[-1] != 0, runner.last_error)
        ok, count, duplicates = _counts(db)
        expected = SEED_TURNS + turns * (1 if same_session else 2)
        row.runs += 1
        row.integrity_ok += ok
        row.duplicates += duplicates
        if all(code == 0 for code in codes):
            row.acknowledged_lost += max(0, expected - count)
    return row


CONVERT_KEY = "faults passphrase"


def _conversion_leftovers(db: Path) -> int:
    from desktop_app.memory.store.lock import conversion_path

    target = conversion_path(db)
    return sum(p.exists() for p in (target, target.with_name(target.name + "-wal"),
                                    target.with_name(target.name + "-shm")))


def convert_beside_writer_runs(runner: Runner, transcript: Path, turns: int, runs: int,
                               rng: random.Random) -> FaultRow:
    """``encrypt`` (or ``decrypt``) started at a random point while an import writes the same
    file: it must refuse while the import has the file open, and no acknowledged turn may be lost."""
    row = FaultRow(scenario="encrypt/decrypt beside a running import")
    base = dict(runner.env)
    started = time.perf_counter()
    runner.run("import", transcript, "--db", _seeded(runner, "conv-calibrate"), "--session", "s")
    uncut = time.perf_counter() - started
    for number in range(runs):
        # Each run its own home: a conversion writes ``encryption = …`` into the config file.
        env = runner.env = _conversion_env(base, runner.folder / f"conv-home{number}")
        db = _seeded(runner, f"conv{number}")
        decrypting = number % 2 == 1
        if decrypting and subprocess.run([sys.executable, "-m", "desktop_app", "encrypt", "--db", str(db)], env=env,
                                         capture_output=True).returncode != 0:
            _fail(row, True, "encrypting before the decrypt run failed")
            continue
        writer = subprocess.Popen([sys.executable, "-m", "desktop_app", "import", str(transcript), "--db", str(db),
                                   "--session", "s"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0, uncut))
        converted = subprocess.run([sys.executable, "-m", "desktop_app", "decrypt" if decrypting else "encrypt",
                                    "--db", str(db)], env=env, capture_output=True)
        _, err = writer.communicate()
        runner.tracebacks += (b"Traceback" in err) + (b"Traceback" in converted.stderr)
        row.runs += 1
        row.cut += converted.returncode != 0  # refused: the import had the file open
        count = _count_with_key(db, env)
        expected = SEED_TURNS + (turns if writer.returncode == 0 else 0)
        row.acknowledged_lost += max(0, expected - count)
        _fail(row, writer.returncode != 0, _last_line(err))
        row.leftovers += _conversion_leftovers(db)
        row.integrity_ok += count >= 0
    runner.env = base
    return row


def _conversion_env(base: dict, home: Path) -> dict:
    return {**base, "PAPERCLIP_HOME": str(home), "PAPERCLIP_PASSPHRASE": CONVERT_KEY}


def _count_with_key(db: Path, env: dict) -> int:
    """Messages in the file, through the CLI (it may be encrypted); -1 when it cannot be read."""
    done = subprocess.run([sys.executable, "-m", "desktop_app", "sessions", "--json", "--db", str(db)], env=env,
                          capture_output=True)
    if done.returncode != 0:
        return -1
    return sum(s["message_count"] for s in json.loads(done.stdout))


def convert_kill_runs(runner: Runner, turns: int, runs: int, rng: random.Random) -> FaultRow:
    """``encrypt``/``decrypt`` killed at a random point, then an ordinary run: the database reads
    back whole (old or new form), and no copy — after ``decrypt``, a plaintext one — is left."""
    import shutil

    row = FaultRow(scenario="kill -9 during encrypt/decrypt, then a run")
    base = dict(runner.env)
    env = runner.env = _conversion_env(base, runner.folder / "conv-kill-home")
    template = _seeded(runner, "conv-template")
    big = runner.folder / "conv-big.jsonl"
    write_transcript(big, turns, "c")
    runner.run("import", big, "--db", template, "--session", "s")
    total = _count_with_key(template, env)
    encrypted = runner.folder / "conv-template-encrypted.db"
    shutil.copy(template, encrypted)
    subprocess.run([sys.executable, "-m", "desktop_app", "encrypt", "--db", str(encrypted), "--config",
                    str(runner.folder / "conv-throwaway.toml")], env=env, capture_output=True)
    timings = {}
    for command, source in (("encrypt", template), ("decrypt", encrypted)):
        trial = runner.folder / f"conv-time-{command}.db"
        shutil.copy(source, trial)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "desktop_app", command, "--db", str(trial), "--config",
                        str(runner.folder / "conv-throwaway.toml")], env=env, capture_output=True)
        timings[command] = time.perf_counter() - started
    for number in range(runs):
        command = "decrypt" if number % 2 else "encrypt"
        db = runner.folder / f"conv-kill{number}.db"
        shutil.copy(encrypted if command == "decrypt" else template, db)
        process = subprocess.Popen([sys.executable, "-m", "desktop_app", command, "--db", str(db), "--config",
                                    str(runner.folder / "conv-throwaway.toml")], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0, timings[command]))
        process.send_signal(signal.SIGKILL)
        _, err = process.communicate()
        runner.tracebacks += b"Traceback" in err
        row.runs += 1
        row.cut += process.returncode == -signal.SIGKILL
        count = _count_with_key(db, env)  # the next run: it also removes what the kill left
        row.integrity_ok += count == total
        row.acknowledged_lost += max(0, total - max(count, 0))
        row.leftovers += _conversion_leftovers(db)
        _fail(row, count < 0, "the file could not be read after the kill")
    runner.env = base
    return row


def hostile_document_runs(runner: Runner) -> FaultRow:
    """``docs add`` of each full-size hostile file (a zip bomb, a billion laughs, a PDF whose
    stream inflates to 1 GB, 10⁶ nested divs …): one line about it each time, no traceback, and the
    peak memory of the command (its reader child included)."""
    from desktop_app.bench.hostile_docs import FULL_SIZE

    row = FaultRow(scenario="docs add of a hostile file")
    folder = runner.folder / "hostile"
    folder.mkdir(exist_ok=True)
    peak = 0
    for number, (name, make) in enumerate(FULL_SIZE.items()):
        path = make(folder / name)
        process = runner.start("docs", "add", path, "--no-vectors", "--db", runner.folder / f"hostile{number}.db")
        out = process.stdout.read() if process.stdout else b""  # one line or two: no pipe fills up
        err = process.stderr.read() if process.stderr else b""
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        runner.tracebacks += b"Traceback" in err
        peak = max(peak, usage.ru_maxrss)  # KiB on Linux, the largest of the command and its waited-for children
        lines = [line for line in (out + err).decode(errors="replace").splitlines() if line.startswith(f"{name}:")]
        row.runs += 1
        row.integrity_ok += len(lines) == 1
        _fail(row, len(lines) != 1 or process.returncode not in (0, 1), f"{name}: exit {process.returncode}, "
              f"{len(lines)} lines about it")
        path.unlink()
    row.peak_mb = round(peak / 1024, 1)
    return row


def format_table(rows: list[FaultRow]) -> str:
    head = ("scenario", "runs", "cut", "integrity ok", "duplicates", "ack. lost", "partial", "leftovers", "tracebacks",
            "failures", "peak MB")
    def cut(row: FaultRow) -> str:
        return str(row.cut) if row.scenario.startswith(("kill", "encrypt")) else "-"

    cells = [head] + [(r.scenario, str(r.runs), cut(r), str(r.integrity_ok), str(r.duplicates),
                       str(r.acknowledged_lost), str(r.partial_imports), str(r.leftovers), str(r.tracebacks),
                       str(r.failures), "-" if r.peak_mb is None else f"{r.peak_mb:.0f}")
                      for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cell, widths, strict=True)))
             for cell in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, print_json

    if args.runs < 1 or args.turns < 1:
        raise CommandError("--runs and --turns must be at least 1", 2)
    from desktop_app.memory.store.sqlite_backend import can_encrypt

    rng = random.Random(args.seed)
    rows = []
    conversions = []
    transcript: Path  # (written in the temporary folder below, before any run reads it)
    if can_encrypt():
        conversions = [lambda r: convert_beside_writer_runs(r, transcript, args.turns, max(2, args.runs // 4), rng),
                       lambda r: convert_kill_runs(r, args.turns, args.runs, rng)]
    with tempfile.TemporaryDirectory(prefix="paperclip-faults-") as tmp:
        folder = Path(tmp)
        transcript = folder / "transcript.jsonl"
        write_transcript(transcript, args.turns, "t")
        for make_row in (lambda r: kill_runs(r, transcript, args.turns, args.runs, rng),
                         lambda r: forget_kill_runs(r, args.turns, args.runs, rng),
                         lambda r: concurrent_runs(r, transcript, args.turns, max(1, args.runs // 4), same_session=True),
                         lambda r: concurrent_runs(r, transcript, args.turns, max(1, args.runs // 4),
                                                   same_session=False),
                         *conversions, *([hostile_document_runs] if args.hostile else [])):
            runner = Runner(folder)
            row = make_row(runner)
            row.tracebacks = runner.tracebacks
            rows.append(row)
            if not args.json:
                print(f"{row.scenario}: {row.runs} runs done", file=sys.stderr, flush=True)
    if args.json:
        print_json({"turns": args.turns, "rows": [r.model_dump() for r in rows]})
    else:
        print(f"faults · {args.turns}-turn JSON Lines import · seed {args.seed}")
        print(format_table(rows))
        for row in rows:
            for error in row.errors:
                print(f"{row.scenario}: {error}")
    return 0
