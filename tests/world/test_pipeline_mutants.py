"""The reply pipeline's bookkeeping, scripted line by line (issue 20, item 1).

`test_pipeline_script.py` pins where values and failures land; these pin the rest a caller
relies on: fire-and-forget failures wait for their sender, a guarded query that stays silent
fails alone, the counts a bench reports (commands, fences, ticks) and the typed refusals of
impossible requests. Each case is a batch, the server's scripted lines and the exact outcome.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from test_pipeline_script import answer, feed, wire_lines

from mcbridge.world.commands import Batch
from mcbridge.world.errors import CommandFailed, ProtocolError, ReplyTimeout, WorldError
from mcbridge.world.geometry import Cuboid
from mcbridge.world.pipeline import (
    COMMANDS_PER_TICK,
    FAIL,
    Command,
    Pipeline,
    batch_error,
    fence_command,
    is_fence_reply,
)


def setter_line(i: int) -> str:
    return f"world.setBlock({i},0,5,1,0)"


def test_fire_and_forget_failures_wait_for_their_own_sender() -> None:
    pipe = Pipeline()
    mine, theirs = Batch(), Batch()
    for i in range(3):
        mine.set_block((i, 0, 5), 1)
    theirs.set_block((9, 0, 5), 1)
    data_mine, _ = pipe.encode(mine.items, owner="me")
    data_theirs, _ = pipe.encode(theirs.items, owner="them")
    lines = answer(data_mine, {setter_line(0): [FAIL], setter_line(2): [FAIL]}) + answer(data_theirs, {})
    assert feed(pipe, lines) is None and pipe.idle
    assert pipe.take_unclaimed("them") is None
    error = pipe.take_unclaimed("me")
    assert isinstance(error, CommandFailed)
    assert [e.commands for e in error.all()] == [(setter_line(0),), (setter_line(2),)]
    assert pipe.take_unclaimed("me") is None, "a failure is raised once"


def test_one_fire_and_forget_failure_comes_back_as_itself() -> None:
    pipe = Pipeline()
    batch = Batch()
    batch.set_block((0, 0, 5), 1)
    data, _ = pipe.encode(batch.items, owner=1)
    assert feed(pipe, answer(data, {setter_line(0): [FAIL]})) is None
    error = pipe.take_unclaimed(1)
    assert isinstance(error, CommandFailed) and error.commands == (setter_line(0),) and not error.others


def test_failures_of_a_waited_batch_are_not_left_unclaimed() -> None:
    pipe = Pipeline()
    batch = Batch()
    setter = batch.set_block((0, 0, 5), 1)
    data, _ = pipe.encode(batch.items)
    assert feed(pipe, answer(data, {setter_line(0): [FAIL]})) is None
    assert isinstance(setter.error, CommandFailed)
    assert pipe.take_unclaimed(None) is None


def test_a_silent_guarded_query_fails_alone_and_an_answered_one_reads() -> None:
    batch = Batch()
    silent, named = batch.entity_name(3), batch.entity_name(4)
    after = batch.get_block((1, 0, 5))
    pipe = Pipeline()
    data, _ = pipe.encode(batch.items)
    lines = answer(data, {"entity.getName(3)": [], "entity.getName(4)": ["Aki"], "world.getBlock(1,0,5)": ["35"]})
    assert feed(pipe, lines) is None and pipe.idle
    assert isinstance(silent.error, CommandFailed) and silent.error.index == 0
    assert "stayed silent" in str(silent.error)
    assert named.result() == "Aki" and after.result() == 35
    # a silent query's failure is its own slot's, never a flush error
    assert batch_error([silent, named, after]) is None


def test_a_second_line_for_an_answered_guarded_query_is_a_desync() -> None:
    batch = Batch()
    name = batch.entity_name(4)
    pipe = Pipeline()
    data, _ = pipe.encode(batch.items)
    error = feed(pipe, answer(data, {"entity.getName(4)": ["Aki", "Bo"]}))
    assert error is not None and "entity.getName(4)" in str(error)
    assert name.result() == "Aki" and not pipe.idle


def test_a_result_before_its_flush_is_refused() -> None:
    batch = Batch()
    query = batch.get_block((1, 0, 5))
    with pytest.raises(WorldError, match=r"world\.getBlock\(1,0,5\): no result yet"):
        query.result()
    assert not query.ok and query.error is None
    assert repr(query) == "<Reply world.getBlock(1,0,5) pending>"
    pipe = Pipeline()
    data, _ = pipe.encode(batch.items)
    assert feed(pipe, answer(data, {"world.getBlock(1,0,5)": ["35"]})) is None
    assert repr(query) == "<Reply world.getBlock(1,0,5) ok>"
    query._invalidate(ReplyTimeout("lost"))
    assert repr(query) == "<Reply world.getBlock(1,0,5) failed>"


def test_stats_count_lines_fences_failures_and_ticks() -> None:
    pipe = Pipeline()
    batch = Batch()
    batch.set_block((0, 0, 5), 1)
    batch.set_block((1, 0, 5), 1)
    batch.get_block((2, 0, 5))
    batch.get_block((3, 0, 5))
    data, _ = pipe.encode(batch.items)
    wire = wire_lines(data)
    # two setters each with their fence, two reads with a marker between, a closing fence
    assert len(wire) == 8
    lines = answer(data, {setter_line(1): [FAIL], "world.getBlock(2,0,5)": ["1"], "world.getBlock(3,0,5)": ["2"]})
    pipe.waiting()
    assert feed(pipe, lines) is None
    stats = pipe.stats
    assert (stats.commands, stats.fences, stats.writes, stats.replies, stats.failures) == (4, 4, 1, 7, 1)
    assert (stats.round_trips, stats.tick_waits) == (1, 1)
    before = stats.snapshot()
    pipe.waiting()  # nothing written since: still one tick for the wait
    assert (pipe.stats - before).tick_waits == 1 and (pipe.stats - before).round_trips == 1


def test_a_wait_after_more_lines_than_a_tick_runs_counts_every_tick() -> None:
    pipe = Pipeline()
    batch = Batch(fence_every=COMMANDS_PER_TICK)
    for i in range(COMMANDS_PER_TICK):  # with the closing fence: one line more than a tick
        batch.set_block((i, 0, 5), 1)
    data, _ = pipe.encode(batch.items, COMMANDS_PER_TICK)
    assert len(wire_lines(data)) == COMMANDS_PER_TICK + 1
    pipe.waiting()
    assert pipe.stats.tick_waits == 2
    exactly = Pipeline()
    one_tick = Batch(fence_every=COMMANDS_PER_TICK)
    for i in range(COMMANDS_PER_TICK - 1):
        one_tick.set_block((i, 0, 5), 1)
    exactly.encode(one_tick.items, COMMANDS_PER_TICK)
    exactly.waiting()
    assert exactly.stats.tick_waits == 1


def test_impossible_requests_are_refused_with_their_reason() -> None:
    pipe = Pipeline()
    batch = Batch()
    batch.set_block((0, 0, 5), 1)
    with pytest.raises(ValueError, match="fence_every must be at least 1"):
        pipe.encode(batch.items, 0)
    assert pipe.encode([], 1) == (b"", None)
    assert pipe.idle and pipe.stats.writes == 0
    with pytest.raises(ValueError, match="multiple of 16"):
        fence_command(170, (0, 0, 0))


def test_fence_shapes() -> None:
    assert str(fence_command(6, (1, 2, 3))) == "world.getBlocks(1,2,3,1,2,8)"
    assert str(fence_command(13, (0, 0, 0))) == "world.getBlocks(0,0,0,0,0,12)"
    assert str(fence_command(160, (1, 2, 3))) == "world.getBlocks(1,2,3,16,2,12)"
    assert str(fence_command(400, (0, 0, 0))) == "world.getBlocks(0,0,0,15,0,24)"
    assert is_fence_reply("0,-1,2", 3) and not is_fence_reply("0,1", 3) and not is_fence_reply("0,x,2", 3)
    assert not is_fence_reply("0,1,2,3", 3)


def test_the_head_command_and_resync_state_name_what_is_awaited() -> None:
    pipe = Pipeline()
    assert pipe.head_command() == "nothing" and not pipe.resync_pending() and pipe.unread_units() == 0
    batch = Batch()
    batch.set_block((0, 0, 5), 1)
    batch.get_block((1, 0, 5))
    batch.get_block((2, 0, 5))
    data, _ = pipe.encode(batch.items)
    assert pipe.head_command() == setter_line(0)
    assert pipe.unread_units() == 5  # segment, read, marker, read, closing fence
    lines = answer(data, {"world.getBlock(1,0,5)": ["1"], "world.getBlock(2,0,5)": ["2"]})
    assert feed(pipe, lines[:1]) is None and pipe.head_command() == "world.getBlock(1,0,5)"
    assert feed(pipe, lines[1:2]) is None and pipe.head_command().startswith("the marker (")
    assert feed(pipe, lines[2:4]) is None and pipe.head_command().startswith("the closing fence (")
    assert pipe.unread_units() == 1
    resync = pipe.begin_resync(ReplyTimeout("no reply"), "the test")
    assert resync.startswith(b"world.getBlocks(") and pipe.resync_pending()
    assert pipe.head_command().startswith("the resync fence (")
    assert pipe.stats.resyncs == 1


def test_a_resync_discards_late_lines_until_its_own_fence() -> None:
    pipe = Pipeline()
    batch = Batch()
    late = batch.get_block((1, 0, 5))
    data, _ = pipe.encode(batch.items)
    resync = pipe.begin_resync(ReplyTimeout("no reply"), "the test")
    lines = [*answer(data, {"world.getBlock(1,0,5)": ["1"]}), *answer(resync, {})]
    assert feed(pipe, lines) is None and pipe.idle and not pipe.resync_pending()
    assert isinstance(late.error, ReplyTimeout)


def test_batch_error_raises_transport_errors_first_and_skips_unreadable_queries() -> None:
    batch = Batch()
    setter, query = batch.set_block((0, 0, 5), 1), batch.get_block((1, 0, 5))
    pipe = Pipeline()
    data, _ = pipe.encode(batch.items)
    assert feed(pipe, answer(data, {setter_line(0): [FAIL], "world.getBlock(1,0,5)": ["7"]})) is None
    assert batch_error([setter, query]) is setter.error
    query._invalidate(ProtocolError("cannot read", desync=False))
    assert batch_error([query, setter]) is setter.error
    lost = ProtocolError("lost", desync=True)
    query._invalidate(lost)
    assert batch_error([setter, query]) is lost


def test_the_failed_setters_of_a_flush_are_one_error_with_the_first_index() -> None:
    batch = Batch()
    setters = [batch.set_block((i, 0, 5), 1) for i in range(3)]
    pipe = Pipeline()
    data, _ = pipe.encode(batch.items)
    assert feed(pipe, answer(data, {setter_line(1): [FAIL], setter_line(2): [FAIL]})) is None
    error = batch_error(setters)
    assert isinstance(error, CommandFailed) and error.index == 1
    assert [e.commands for e in error.all()] == [(setter_line(1),), (setter_line(2),)]
    assert Command("a.b", ("1", "2")).wire() == b"a.b(1,2)\n"


@pytest.mark.parametrize(
    "make", [lambda b: b.get_block((1, 0, 5)), lambda b: b.entity_name(4)], ids=["read", "guarded"]
)
def test_a_long_hostile_reply_is_quoted_cut_to_80_characters(make: Callable[[Batch], object]) -> None:
    """A line of the wrong shape may be player text: the error quotes only its start."""
    batch = Batch()
    make(batch)
    pipe = Pipeline()
    pipe.encode(batch.items)
    hostile = "x," * 60
    error = feed(pipe, [hostile])
    assert error is not None
    assert repr(hostile[:80]) in str(error) and repr(hostile[:81]) not in str(error)


def read_size(line: str) -> int | None:
    """How many ids a getBlocks line's reply holds (None for any other line)."""
    if not line.startswith("world.getBlocks("):
        return None
    x1, y1, z1, x2, y2, z2 = (int(v) for v in line[len("world.getBlocks(") : -1].split(","))
    return (abs(x2 - x1) + 1) * (abs(y2 - y1) + 1) * (abs(z2 - z1) + 1)


# reads of every fence size, flat and two or three blocks high (1 x 2 x 4 is 8 ids, not 4)
READS = [(0, 0, k - 1) for k in range(6, 14)] + [(0, 1, 3), (0, 1, 4), (0, 2, 1), (1, 1, 2), (0, 1, 5)]


@pytest.mark.parametrize("lead", [0, 1, 2, 3])
def test_no_fence_guard_or_marker_shares_a_size_with_the_read_beside_it(lead: int) -> None:
    """`lead` setters first, so a guarded query sits at even and odd indices."""
    pipe = Pipeline()
    for far in READS:
        batch = Batch()
        for i in range(lead):
            batch.set_block((i, 0, 5), 1)
        batch.entity_name(4)
        batch.get_blocks(Cuboid((0, 0, 0), far))
        batch.get_blocks(Cuboid((1, 0, 0), (1 + far[0], far[1], far[2])))
        data, _ = pipe.encode(batch.items)
        sizes = [read_size(line) for line in wire_lines(data)]
        for a, b in itertools.pairwise(sizes):
            assert a is None or b is None or a != b, (far, wire_lines(data))
        pipe.abandon(lambda command, head: WorldError(command))


def test_a_tall_read_of_a_closing_fence_size_is_never_the_closing_fence() -> None:
    """16 x 2 x 5 is 160 ids, a closing-fence size: the fence must not take it."""
    pipe = Pipeline()
    for _ in range(40):
        batch = Batch()
        batch.get_blocks(Cuboid((0, 0, 0), (15, 1, 4)))
        batch.get_blocks(Cuboid((0, 0, 0), (15, 1, 5)))
        data, _ = pipe.encode(batch.items)
        lines = wire_lines(data)
        assert read_size(lines[-1]) not in (160, 192), lines
        pipe.abandon(lambda command, head: WorldError(command))


def test_sixteen_batches_in_flight_close_with_sixteen_sizes() -> None:
    """160 to 400 blocks, 16 wide: each batch in flight is closed by a size of its own."""
    pipe = Pipeline()
    closing = []
    for i in range(16):
        batch = Batch()
        batch.get_block((i, 0, 5))
        data, _ = pipe.encode(batch.items)
        closing.append(read_size(wire_lines(data)[-1]))
    assert sorted(closing) == list(range(160, 401, 16))


@pytest.mark.parametrize(
    ("make", "before"),
    [
        (lambda b: b.get_block((1, 0, 5)), ["35"]),  # at the closing fence
        (lambda b: b.set_block((1, 0, 5), 1), []),  # at a setter's fence
        (lambda b: b.entity_name(4), ["Aki"]),  # after a guarded query's answer
    ],
    ids=["closing fence", "setter fence", "guard"],
)
def test_a_long_hostile_line_where_a_fence_belongs_is_quoted_cut_to_80_characters(
    make: Callable[[Batch], object], before: list[str]
) -> None:
    batch = Batch()
    make(batch)
    pipe = Pipeline()
    pipe.encode(batch.items)
    hostile = "y," * 60
    error = feed(pipe, [*before, hostile])
    assert error is not None
    assert repr(hostile[:80]) in str(error) and repr(hostile[:81]) not in str(error)


def test_a_raw_getblocks_with_odd_arguments_is_sent_and_its_reply_read() -> None:
    """`Batch.command` passes any arguments: a box that is no box has no known size."""
    batch = Batch()
    odd = batch.command("world.getBlocks", 0, 0, 0, 1.5, 0, 0, parse=str)
    text = batch.command("world.getBlocks", 0, 0, 0, "x", 0, 0, parse=str)
    pipe = Pipeline()
    data, _ = pipe.encode(batch.items)
    lines = answer(data, {str(odd.command): ["1,2"], str(text.command): ["3"]})
    assert feed(pipe, lines) is None and pipe.idle
    assert (odd.result(), text.result()) == ("1,2", "3")


def test_a_marker_never_shares_a_size_with_the_first_read_of_a_batch() -> None:
    pipe = Pipeline()
    for first in range(6, 14):
        for second in range(6, 14):
            batch = Batch()
            batch.get_blocks(Cuboid((0, 0, 0), (0, 0, first - 1)))
            batch.get_blocks(Cuboid((1, 0, 0), (1, 0, second - 1)))
            data, _ = pipe.encode(batch.items)
            sizes = [read_size(line) for line in wire_lines(data)]
            assert sizes[1] not in (first, second), (first, second, sizes)
            pipe.abandon(lambda command, head: WorldError(command))


def test_a_reply_its_parser_cannot_read_is_a_desync_quoting_80_characters() -> None:
    """A command without a known reply shape (here `mcbridge.version`) relies on its parser."""
    batch = Batch()
    reply = batch.command("mcbridge.version", parse=int)
    pipe = Pipeline()
    pipe.encode(batch.items)
    hostile = "z" * 120
    error = feed(pipe, [hostile])
    assert error is not None and "cannot read the reply" in str(error)
    assert repr(hostile[:80]) in str(error) and repr(hostile[:81]) not in str(error)
    assert not reply.done
