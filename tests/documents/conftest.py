"""Document fixtures: real files made in the test (tests/support/documents.py writes them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.documents import write_pdf


@pytest.fixture
def counter():
    from desktop_app.engine.tokens import fallback_counter

    return fallback_counter()


@pytest.fixture
def contract_pdf(tmp_path) -> Path:
    return write_pdf(tmp_path / "contract.pdf", [
        ["Service Agreement", "This agreement is made between Acme Ltd and the client."],
        ["Payment terms", "The monthly fee is 4,200 euros, payable within 30 days of the invoice.",
         "Late payment carries interest of 2 percent per month."],
    ], outline=[("Service Agreement", 0), ("Payment terms", 1)])
