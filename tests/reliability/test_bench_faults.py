"""`paperclip bench faults` runs its loops and reports no damage (a smoke run: one import kill, one forget kill,
one race each, and with SQLCipher the conversion beside an import and a killed conversion)."""

from __future__ import annotations

import json


def test_bench_faults_smoke(cli):
    ran = cli("bench", "faults", "--runs", "1", "--turns", "40", "--no-hostile", "--json", timeout=600)
    assert ran.code == 0, ran.err
    rows = json.loads(ran.out)["rows"]
    from desktop_app.memory.store.sqlite_backend import can_encrypt

    assert [r["runs"] for r in rows] == [1, 1, 1, 1] + ([2, 1] if can_encrypt() else [])
    for row in rows:
        assert row["integrity_ok"] == row["runs"]
        assert (row["duplicates"], row["acknowledged_lost"], row["partial_imports"], row["tracebacks"],
                row["failures"], row["leftovers"]) == (0, 0, 0, 0, 0, 0), row
