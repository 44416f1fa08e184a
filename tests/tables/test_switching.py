"""`switching.prefer_io_thread`: the controller process hands the interpreter to a waiting
thread (the supervisor's I/O thread with the world's replies) within a millisecond, and says
what it replaced so a caller can put it back. (What that buys is measured, not asserted:
bench/tables.py, the module's docstring.)"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from mcbridge.tables import switching


@pytest.fixture
def restored_interval() -> Iterator[None]:
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


def test_the_interval_is_set_and_the_old_one_returned(restored_interval: None) -> None:
    sys.setswitchinterval(0.005)
    assert switching.prefer_io_thread() == pytest.approx(0.005)
    assert sys.getswitchinterval() == pytest.approx(switching.SWITCH_INTERVAL)
