"""The reply pipeline with scripted reply lines (it is sans-I/O): which line lands where.

Each case encodes a batch, answers it the way a RaspberryJuice server would (fences over
air, scripted replies for the rest), perhaps breaks the stream, and checks every slot. The
property test at the end breaks streams at random: no slot may ever hold a wrong value.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from conn_support import answer_fence
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.errors import CommandFailed, ProtocolError, ReplyTimeout, WorldError
from mcbridge.world.geometry import Cuboid
from mcbridge.world.pipeline import FAIL, Desync, Pipeline, Reply, batch_error


def wire_lines(data: bytes) -> list[str]:
    return data.decode("utf-8").splitlines()


def answer(wire: bytes, script: dict[str, list[str]]) -> list[str]:
    """The server's reply lines: `script` for the lines it names, fences over air."""
    out: list[str] = []
    for line in wire_lines(wire):
        out.extend(script[line] if line in script else answer_fence(line))
    return out


def feed(pipe: Pipeline, lines: list[str]) -> Desync | None:
    """Feed lines until one does not fit (returned), as the connection's reader would."""
    for line in lines:
        try:
            pipe.feed(line)
        except Desync as exc:
            return exc
    return None


def encode(batch: Batch, fence_every: int = 1) -> tuple[Pipeline, bytes]:
    pipe = Pipeline()
    data, _last = pipe.encode(batch.items, fence_every)
    return pipe, data


# -- where failures land ----------------------------------------------------------------------


@dataclass(frozen=True)
class FailCase:
    name: str
    setters: int
    fence_every: int
    failing: tuple[int, ...]  # setters that answer Fail
    named: tuple[tuple[str, ...], ...]  # the commands each raised CommandFailed names
    index: int  # the raised error's index in the batch
    failed_count: int


FAIL_CASES = [
    FailCase("one fence per setter names the exact one", 3, 1, (1,),
             (("world.setBlock(1,0,5,1,0)",),), 1, 1),
    FailCase("two failures, each named", 4, 1, (0, 3),
             (("world.setBlock(0,0,5,1,0)",), ("world.setBlock(3,0,5,1,0)",)), 0, 1),
    FailCase("a segment of 3 names its candidates and its first index", 6, 3, (4,),
             (tuple(f"world.setBlock({i},0,5,1,0)" for i in (3, 4, 5)),), 3, 1),
    FailCase("a whole segment failing names each", 4, 2, (2, 3),
             (("world.setBlock(2,0,5,1,0)",), ("world.setBlock(3,0,5,1,0)",)), 2, 1),
]  # fmt: skip


@pytest.mark.parametrize("case", FAIL_CASES, ids=lambda c: c.name)
def test_a_failure_lands_on_its_command(case: FailCase) -> None:
    batch = Batch()
    setters = [batch.set_block((i, 0, 5), 1) for i in range(case.setters)]
    pipe, data = encode(batch, case.fence_every)
    script = {f"world.setBlock({i},0,5,1,0)": [FAIL] for i in case.failing}
    assert feed(pipe, answer(data, script)) is None
    assert pipe.idle
    error = batch_error(setters)
    assert isinstance(error, CommandFailed)
    assert tuple(e.commands for e in error.all()) == case.named
    assert (error.index, error.failed_count) == (case.index, case.failed_count)
    failed = {i for i, r in enumerate(setters) if not r.ok}
    in_segment = {
        j for i in case.failing for j in range(case.setters) if j // case.fence_every == i // case.fence_every
    }
    assert failed == in_segment


def test_more_fail_lines_than_setters_is_a_desync() -> None:
    batch = Batch(fence_every=2)
    first, second = batch.set_block((0, 0, 5), 1), batch.set_block((1, 0, 5), 1)
    pipe, data = encode(batch, 2)
    lines = [FAIL, FAIL, FAIL, *answer(data, {})]
    assert feed(pipe, lines) is not None
    pipe.begin_resync(ProtocolError("out of step", desync=True), "the test")
    assert not first.ok and not second.ok


def test_a_fail_meant_for_a_setter_never_becomes_a_query_reply() -> None:
    """The fence between a setter and a query is what keeps a stray Fail off the query."""
    batch = Batch()
    setter = batch.set_block((0, 0, 5), 4000)
    query = batch.get_block((3, 0, 5))
    pipe, data = encode(batch)
    lines = wire_lines(data)
    assert lines[0] == "world.setBlock(0,0,5,4000,0)"
    assert lines[1].startswith("world.getBlocks(")  # the fence, before the query
    assert lines[2] == "world.getBlock(3,0,5)"
    assert feed(pipe, answer(data, {lines[0]: [FAIL], lines[2]: ["35"]})) is None
    assert isinstance(setter.error, CommandFailed) and setter.error.index == 0
    assert query.result() == 35


# -- shapes -------------------------------------------------------------------------------------

Make = Callable[[Batch], Reply[object]]
SHAPE_CASES: list[tuple[str, Make, str]] = [
    ("getBlocks of 4 answered with 2 ids", lambda b: b.get_blocks(Cuboid((0, 0, 0), (1, 1, 0))), "1,2"),
    ("getBlock answered with a position", lambda b: b.get_block((1, 2, 3)), "1.5,2.0,3.0"),
    ("getBlockWithData with three fields", lambda b: b.get_block_with_data((1, 2, 3)), "35,1,2"),
    ("a hit record with four fields", lambda b: b.poll_block_hits(), "1,2,3,4|1,2,3,4,5"),
    ("a player's chat poll with another id", lambda b: b.poll_chat_posts(7), "8,bluff"),
    ("chat that is not a record", lambda b: b.poll_chat_posts(), "bluff"),
    ("player ids that are not numbers", lambda b: b.get_player_ids(), "1|x"),
    ("a position with two numbers", lambda b: b.entity_pos(3), "1.0,2.0"),
    ("a name holding a field separator", lambda b: b.entity_name(3), "0,0"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "line"), [c[1:] for c in SHAPE_CASES], ids=[c[0] for c in SHAPE_CASES])
def test_a_reply_of_the_wrong_shape_is_a_desync_and_no_value(make: Make, line: str) -> None:
    batch = Batch()
    reply = make(batch)
    pipe, data = encode(batch)
    query = wire_lines(data)[0]
    assert feed(pipe, answer(data, {query: [line]})) is not None
    pipe.begin_resync(ProtocolError("out of step", desync=True), "the test")
    assert isinstance(reply.error, ProtocolError) and reply.error.desync


def test_well_formed_replies_are_read() -> None:
    batch = Batch()
    ids = batch.get_blocks(Cuboid((0, 0, 0), (1, 1, 0)))
    hits = batch.poll_block_hits()
    chat = batch.poll_chat_posts(7)
    name = batch.entity_name(7)
    pipe, data = encode(batch)
    script = {
        "world.getBlocks(0,0,0,1,1,0)": ["1,2,3,4"],
        "events.block.hits()": ["1,2,3,1,7"],
        "entity.events.chat.posts(7)": ["7,a\\u007cb, c"],
        "entity.getName(7)": ["Aki"],
    }
    assert feed(pipe, answer(data, script)) is None and pipe.idle
    assert ids.result() == [1, 2, 3, 4]
    assert [(h.pos.x, h.face, h.entityId) for h in hits.result()] == [(1, 1, 7)]
    assert [(c.entityId, c.message) for c in chat.result()] == [(7, "a|b, c")]
    assert name.result() == "Aki"


# -- the closing fence ------------------------------------------------------------------------


def two_reads() -> tuple[Batch, Reply[Block], Reply[Block]]:
    batch = Batch()
    return batch, batch.get_block_with_data((1, 0, 5)), batch.get_block_with_data((2, 0, 5))


def script_two(data: bytes) -> list[str]:
    return answer(data, {"world.getBlockWithData(1,0,5)": ["35,1"], "world.getBlockWithData(2,0,5)": ["35,2"]})


def test_a_duplicated_line_is_caught_by_the_marker_after_it() -> None:
    batch, first, second = two_reads()
    pipe, data = encode(batch)
    lines = script_two(data)
    assert len(lines) == 4  # read, marker, read, closing fence
    error = feed(pipe, [lines[0], lines[0], *lines[1:]])  # 35,1 twice
    assert error is not None and "marker" in str(error)
    pipe.begin_resync(ProtocolError("out of step", desync=True), "the test")
    assert not first.ok and not second.ok


def test_a_duplicate_and_a_drop_in_one_batch_do_not_cancel_out() -> None:
    """Over a run of same-shaped reads, one extra line and one missing line later would
    leave the count right and every read in between shifted; the markers catch it."""
    batch = Batch()
    reads = [batch.get_block_with_data((i, 0, 5)) for i in range(1, 9)]
    pipe, data = encode(batch)
    lines = answer(data, {f"world.getBlockWithData({i},0,5)": [f"35,{i}"] for i in range(1, 9)})
    broken = [lines[0], lines[0], *lines[1:10], *lines[11:]]  # dup read 1, drop read 6
    assert len(broken) == len(lines)
    assert feed(pipe, broken) is not None
    pipe.begin_resync(ProtocolError("out of step", desync=True), "the test")
    assert not any(r.ok for r in reads)


def test_a_dropped_line_leaves_the_batch_open_and_a_timeout_withdraws_it() -> None:
    batch, first, second = two_reads()
    pipe, data = encode(batch)
    lines = script_two(data)
    assert feed(pipe, lines[1:]) is not None or not pipe.idle
    pipe.begin_resync(ReplyTimeout("no reply"), "the test")
    assert not first.ok and not second.ok


def test_an_unasked_line_is_a_desync() -> None:
    assert feed(Pipeline(), ["Welcome bob"]) is not None


def test_markers_never_share_a_size_with_a_neighbouring_read() -> None:
    batch = Batch()
    for k in range(6, 14):  # boxes of every marker size, twice
        batch.get_blocks(Cuboid((0, 0, 0), (0, 0, k - 1)))
        batch.get_blocks(Cuboid((1, 0, 0), (1, 0, k - 1)))
    _pipe, data = encode(batch)
    lines = wire_lines(data)
    sizes = [len(answer_fence(line)[0].split(",")) for line in lines]
    assert len(lines) == 2 * 16  # 16 reads, 15 markers, the closing fence
    assert all(a != b for a, b in itertools.pairwise(sizes))


def test_the_closing_fence_is_not_a_size_in_flight() -> None:
    pipe = Pipeline()
    sizes = set()
    for _ in range(40):
        batch = Batch()
        for k in (160, 176, 192):  # getBlocks volumes equal to closing-fence sizes
            batch.get_blocks(Cuboid((0, 0, 0), (15, 0, k // 16 - 1)))
        data, _ = pipe.encode(batch.items)
        closing = wire_lines(data)[-1]
        size = len(answer_fence(closing)[0].split(","))
        assert size not in (160, 176, 192) and size >= 160
        sizes.add(size)
        assert feed(pipe, answer(data, {})) is None and pipe.idle
    assert len(sizes) > 1  # it rotates


# -- no wrong value, whatever the stream does -------------------------------------------------

BLOCKS = [Block(35, d) for d in range(16)]


Fault = tuple[str, int, int]


@st.composite
def broken_streams(draw: st.DrawFn) -> tuple[list[tuple[str, int]], list[Fault]]:
    kinds = draw(st.lists(st.sampled_from(["block", "data", "set", "ids"]), min_size=1, max_size=12))
    plan = [(kind, draw(st.integers(0, 15))) for kind in kinds]
    # No reordering: TCP keeps order, and two same-shaped replies swapped cannot be told
    # apart without request ids, which RaspberryJuice does not have.
    kind = st.sampled_from(["drop", "dup", "cut", "fail", "none"])
    faults = draw(st.lists(st.tuples(kind, st.integers(0, 60), st.integers(1, 5)), max_size=3))
    return plan, faults


def apply_fault(lines: list[str], fault: Fault) -> None:
    name, where, cut = fault
    if not lines:
        return
    at = where % len(lines)
    if name == "drop":
        del lines[at]
    elif name == "dup":
        lines.insert(at, lines[at])
    elif name == "cut" and len(lines[at]) > 1:
        split = 1 + cut % (len(lines[at]) - 1)
        lines[at : at + 1] = [lines[at][:split], lines[at][split:]]
    elif name == "fail":
        lines[at] = FAIL


@settings(max_examples=400, deadline=None)
@given(broken_streams())
def test_no_broken_stream_ever_yields_a_wrong_value(
    case: tuple[list[tuple[str, int]], list[Fault]],
) -> None:
    """Up to three faults in one batch (a duplicate and a later drop included)."""
    plan, faults = case
    batch = Batch()
    expected: list[tuple[Reply[object], object]] = []
    script: dict[str, list[str]] = {}
    for i, (kind, value) in enumerate(plan):
        pos = (i + 1, 0, 5)
        if kind == "block":
            reply: Reply[object] = batch.get_block(pos)  # type: ignore[assignment]
            expected.append((reply, 35))
            script[f"world.getBlock({i + 1},0,5)"] = ["35"]
        elif kind == "data":
            reply = batch.get_block_with_data(pos)  # type: ignore[assignment]
            expected.append((reply, BLOCKS[value]))
            script[f"world.getBlockWithData({i + 1},0,5)"] = [f"35,{value}"]
        elif kind == "ids":
            reply = batch.get_blocks(Cuboid(pos, (i + 1, 1, 5)))  # type: ignore[assignment]
            expected.append((reply, [value, 35]))
            script[f"world.getBlocks({i + 1},0,5,{i + 1},1,5)"] = [f"{value},35"]
        else:
            expected.append((batch.set_block(pos, BLOCKS[value]), None))
    pipe, data = encode(batch)
    lines = answer(data, script)
    # One fault per original line, as the fault proxy does: a piece of a cut line that is
    # then dropped is a truncated line, which no reply format without checksums can reveal
    # ("35" arriving as "5").
    chosen: dict[int, Fault] = {}
    for fault in faults:
        chosen.setdefault(fault[1] % len(lines), fault)
    for at in sorted(chosen, reverse=True):  # from the end, so earlier indices stay put
        name, _where, cut = chosen[at]
        apply_fault(lines, (name, at, cut))
    broke = feed(pipe, lines)
    if broke is not None or not pipe.idle:  # a desync, or a line missing: the timeout
        cause: WorldError = ProtocolError("out of step", desync=True) if broke else ReplyTimeout("late")
        pipe.begin_resync(cause, "the test")
    for reply, value in expected:
        assert reply.done
        if reply.ok:
            assert reply.result() == value
