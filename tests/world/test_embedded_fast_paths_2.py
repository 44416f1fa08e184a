"""The embedded world's shortcuts say exactly what the plain code said.

Three shortcuts of the embedded world, each checked against what it replaces:

* `Player.chat_heard` is a slice of the world's one broadcast log (`World.public_chat`),
  from the player's joining (their own welcome line included) to their leaving. Asserted:
  a later joiner hears nothing said before, a player who left hears nothing after, players
  online together hear the same lines, and a rejoin under the same name is a new player who
  hears only from the rejoin. A model (each player's own list, appended to at each broadcast
  while online, as the world used to keep it) must agree under any sequence of joins,
  leaves, broadcasts and chat lines.
* `Call.block_at` caches a session's (x, y, z) texts to absolute positions. Asserted through
  `run_line`: a setter lands at the text plus the session's origin; a new origin clears the
  cache (the same text lands at the new place); decimal and exponent spellings truncate
  toward zero as Java's `(int)` does, the same on the first and the cached use; the cache
  never grows past `commands.POSITIONS_KEPT`, and answers stay right when it is cleared.
* `BlockStore.small_ids` reads a small cuboid's ids in `world.getBlocks` order (y outermost,
  then x, z fastest), with a fast path inside one 16^3 section. Asserted against
  `store.get` block by block after random edits across section borders, next to y 0 and
  255 and beyond the world's height, and through `world.getBlocks` itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.world.embedded import commands
from mcbridge.world.embedded.commands import run_line
from mcbridge.world.embedded.javatext import parse_block_coord, wrap_int
from mcbridge.world.embedded.session import Session
from mcbridge.world.embedded.storage import Position, state_of
from mcbridge.world.embedded.world import CHAT_LINE, WELCOME_TEXT, Player, World

ORIGIN = (10, 64, -5)


def new_session(origin: Position = ORIGIN) -> Session:
    session = Session(1, write=lambda _data: None)
    session.set_origin(origin)
    return session


# ------------------------------------------------------------------------------ chat heard
def test_a_later_joiner_hears_its_own_welcome_and_what_follows_not_what_came_before() -> None:
    world = World()
    world.broadcast("before anyone")
    aki = world.join("Aki")
    assert aki.chat_heard == [WELCOME_TEXT.format(name="Aki")]
    world.broadcast("only Aki")
    ben = world.join("Ben")
    world.broadcast("both")
    assert ben.chat_heard == [WELCOME_TEXT.format(name="Ben"), "both"]
    assert aki.chat_heard == [WELCOME_TEXT.format(name="Aki"), "only Aki", WELCOME_TEXT.format(name="Ben"), "both"]
    assert world.public_chat[0] == "before anyone" and "before anyone" not in aki.chat_heard


def test_players_online_together_hear_the_same_lines_and_chat_is_broadcast_once() -> None:
    world = World()
    aki, ben = world.join("Aki"), world.join("Ben")
    mark = len(world.public_chat)
    world.chat(aki, "I bid 4 red")
    world.broadcast("[table] Ben to play")
    said = [CHAT_LINE.format(name="Aki", message="I bid 4 red"), "[table] Ben to play"]
    assert aki.chat_heard[-2:] == said and ben.chat_heard[-2:] == said
    assert aki.chat_heard[1:] == ben.chat_heard  # after Aki's own welcome, the same lines
    assert world.public_chat[mark:] == said  # one append per line, whoever is online


def test_a_player_who_left_hears_nothing_after_leaving() -> None:
    world = World()
    aki, ben = world.join("Aki"), world.join("Ben")
    world.broadcast("while both are here")
    heard = aki.chat_heard
    world.leave(aki)
    world.broadcast("after Aki left")
    world.chat(ben, "anyone?")
    assert aki.chat_heard == heard
    assert ben.chat_heard[-2:] == ["after Aki left", CHAT_LINE.format(name="Ben", message="anyone?")]
    world.leave(aki)  # a second leave changes nothing
    assert aki.chat_heard == heard


def test_a_rejoin_is_a_new_player_who_hears_only_from_the_rejoin() -> None:
    world = World()
    first = world.join("Aki")
    world.broadcast("first visit")
    world.leave(first)
    world.broadcast("while away")
    again = world.join("Aki")
    world.broadcast("second visit")
    assert again is not first and again.entity_id != first.entity_id
    assert again.chat_heard == [WELCOME_TEXT.format(name="Aki"), "second visit"]
    assert first.chat_heard == [WELCOME_TEXT.format(name="Aki"), "first visit"]


def test_chat_heard_is_read_only_and_hands_out_a_copy() -> None:
    world = World()
    aki = world.join("Aki")
    heard = aki.chat_heard
    heard.append("not said")
    assert aki.chat_heard == [WELCOME_TEXT.format(name="Aki")]
    assert "not said" not in world.public_chat
    with pytest.raises(AttributeError):
        aki.chat_heard = []  # type: ignore[misc]


NAMES = ["Aki", "Ben", "Chie"]
operations = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.sampled_from(NAMES)),
        st.tuples(st.just("leave"), st.sampled_from(NAMES)),
        st.tuples(st.just("say"), st.sampled_from(NAMES)),
        st.tuples(st.just("broadcast"), st.text("abc", min_size=1, max_size=3)),
    ),
    max_size=40,
)


@dataclass
class Heard:
    """The model: what one player object should have heard, kept by hand."""

    player: Player
    lines: list[str] = field(default_factory=list)


@settings(max_examples=200, deadline=None)
@given(operations)
def test_chat_heard_agrees_with_a_list_kept_per_player(ops: list[tuple[str, str]]) -> None:
    world = World()
    everyone: list[Heard] = []  # every player object ever made, departed ones included
    online: dict[str, Heard] = {}

    def said(line: str) -> None:
        for heard in online.values():
            heard.lines.append(line)

    for n, (kind, arg) in enumerate(ops):
        if kind == "join" and arg not in online:
            heard = Heard(world.join(arg))
            everyone.append(heard)
            online[arg] = heard
            said(WELCOME_TEXT.format(name=arg))
        elif kind == "leave" and arg in online:
            world.leave(online.pop(arg).player)
        elif kind == "say" and arg in online:
            message = f"line {n}"
            world.chat(online[arg].player, message)
            said(CHAT_LINE.format(name=arg, message=message))
        elif kind == "broadcast":
            world.broadcast(arg)
            said(arg)
        for heard in everyone:
            assert heard.player.chat_heard == heard.lines
    assert [p.player_name for p in world.players] == list(online)


# --------------------------------------------------------------------------- block_at cache
def test_a_setter_lands_at_its_text_plus_the_origin() -> None:
    world, session = World(), new_session()
    assert run_line(session, world, "world.setBlock(1,2,3,1)") is None
    assert world.store.get(11, 66, -2) >> 4 == 1
    assert run_line(session, world, "world.getBlock(1,2,3)") == "1"
    assert session.positions == {("1", "2", "3"): (11, 66, -2)}


def test_a_new_origin_clears_the_cache() -> None:
    world, session = World(), new_session()
    run_line(session, world, "world.setBlock(1,2,3,1)")
    session.set_origin((-100, 10, 200))
    assert session.positions == {}
    run_line(session, world, "world.setBlock(1,2,3,4)")
    assert world.store.get(-99, 12, 203) >> 4 == 4  # the new place
    assert world.store.get(11, 66, -2) >> 4 == 1  # the old one untouched
    assert run_line(session, world, "world.getBlock(1,2,3)") == "4"


@pytest.mark.parametrize(("text", "value"), [
    ("1.9", 1), ("-0.5", 0), ("-1.9", -1), ("1e1", 10), ("2.5E1", 25), ("-0.0", 0), ("+7", 7),
    ("3d", 3), (" 4 ", 4), ("007", 7), ("-12", -12),
])
def test_decimal_spellings_truncate_toward_zero_first_time_and_cached(text: str, value: int) -> None:
    assert parse_block_coord(text) == value
    world, session = World(), new_session()
    for block_id in (1, 4):  # the second use comes from the cache
        run_line(session, world, f"world.setBlock({text},{text},{text},{block_id})")
        assert world.store.get(10 + value, 64 + value, -5 + value) >> 4 == block_id
        assert session.positions[(text, text, text)] == (10 + value, 64 + value, -5 + value)


def coordinate_text(low: int, high: int) -> st.SearchStrategy[str]:
    """Ways a client may spell a coordinate (all finite, no commas)."""
    return st.one_of(
        st.integers(low, high).map(str),
        st.floats(low, high, allow_nan=False, allow_infinity=False).map(repr),
        st.tuples(st.integers(low, high), st.integers(0, 99)).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(st.integers(-9, 9), st.integers(0, 1)).map(lambda t: f"{t[0]}e{t[1]}"),
    )


def expected_at(session: Session, texts: tuple[str, str, str]) -> Position:
    """Java: `(int) Double.parseDouble(text)` truncates toward zero, plus the origin."""
    origin = session.block_origin
    values = [math.trunc(float(t.rstrip("dDfF"))) for t in texts]
    assert values == [parse_block_coord(t) for t in texts]
    return (wrap_int(values[0] + origin[0]), wrap_int(values[1] + origin[1]), wrap_int(values[2] + origin[2]))


def write_and_check(world: World, session: Session, texts: tuple[str, str, str], block_id: int) -> None:
    at = expected_at(session, texts)
    world.store.set(*at, state_of(0))  # air first: a write elsewhere cannot pass for this one
    run_line(session, world, f"world.setBlock({','.join(texts)},{block_id})")
    assert world.store.get(*at) >> 4 == block_id, (texts, at)
    assert run_line(session, world, f"world.getBlock({','.join(texts)})") == str(block_id)


@settings(max_examples=200, deadline=None)
@given(
    origins=st.lists(st.tuples(st.integers(-1000, 1000), st.integers(105, 150), st.integers(-1000, 1000)),
                     min_size=1, max_size=3),
    uses=st.lists(st.tuples(coordinate_text(-100, 100), coordinate_text(-100, 100), coordinate_text(-100, 100)),
                  min_size=1, max_size=12),
    kept=st.integers(1, 6),
)
def test_cached_positions_match_a_fresh_parse_however_the_cache_is_cut(
        origins: list[Position], uses: list[tuple[str, str, str]], kept: int) -> None:
    world = World()
    session = new_session(origins[0])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(commands, "POSITIONS_KEPT", kept)
        for origin in origins:
            session.set_origin(origin)
            for round_ in range(2):  # each text twice: once parsed, once (maybe) from the cache
                for n, texts in enumerate(uses):
                    write_and_check(world, session, texts, (1, 4, 5)[(n + round_) % 3])
                    assert len(session.positions) <= kept


def test_a_small_cache_is_cleared_when_full_and_answers_stay_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands, "POSITIONS_KEPT", 4)
    world, session = World(), new_session()
    sizes = []
    for n in range(30):
        texts = (str(n % 7), str(n % 5), "1.5")
        write_and_check(world, session, texts, (1, 4)[n % 2])
        sizes.append(len(session.positions))
    assert max(sizes) == 4 and min(sizes) == 1  # it filled up and started afresh


# ------------------------------------------------------------------------------ small_ids
X = st.integers(-20, 20)
Y = st.one_of(st.integers(-3, 20), st.integers(238, 259))  # next to y 0 and 255, and beyond
Z = st.integers(-20, 20)
STATES = st.sampled_from([state_of(0), state_of(1), state_of(35, 14), state_of(35, 3), state_of(3), state_of(2)])
edits = st.lists(
    st.one_of(
        st.tuples(st.just("set"), st.tuples(X, Y, Z), st.tuples(st.just(0), st.just(0), st.just(0)), STATES),
        st.tuples(st.just("fill"), st.tuples(X, Y, Z), st.tuples(st.integers(0, 9), st.integers(0, 9),
                                                                  st.integers(0, 9)), STATES),
    ),
    max_size=15,
)


@st.composite
def small_cuboids(draw: st.DrawFn) -> tuple[Position, Position]:
    """A cuboid of at most 64 blocks: the size `world.getBlocks` reads block by block."""
    dx = draw(st.integers(1, 8))
    dy = draw(st.integers(1, 64 // dx))
    dz = draw(st.integers(1, 64 // (dx * dy)))
    low = (draw(X), draw(Y), draw(Z))
    return low, (low[0] + dx - 1, low[1] + dy - 1, low[2] + dz - 1)


def block_by_block(world: World, low: Position, high: Position) -> list[int]:
    (x0, y0, z0), (x1, y1, z1) = low, high
    return [world.store.get(x, y, z) >> 4
            for y in range(y0, y1 + 1) for x in range(x0, x1 + 1) for z in range(z0, z1 + 1)]


def edited_world(changes: list[tuple[str, Position, Position, int]]) -> World:
    world = World()
    for kind, at, size, state in changes:
        if kind == "set":
            world.store.set(*at, state)
        else:
            world.store.fill(at, (at[0] + size[0], at[1] + size[1], at[2] + size[2]), state)
    return world


@settings(max_examples=200, deadline=None)
@given(changes=edits, probes=st.lists(small_cuboids(), min_size=1, max_size=8))
def test_small_ids_reads_what_get_reads_in_get_blocks_order(
        changes: list[tuple[str, Position, Position, int]], probes: list[tuple[Position, Position]]) -> None:
    world = edited_world(changes)
    for low, high in probes:
        ids = world.store.small_ids(low, high)
        assert all(isinstance(i, int) for i in ids)
        assert ids == block_by_block(world, low, high), (low, high)


@settings(max_examples=100, deadline=None)
@given(changes=edits, probe=small_cuboids(), origin=st.tuples(st.integers(-40, 40), st.integers(-5, 5),
                                                               st.integers(-40, 40)))
def test_get_blocks_of_a_small_cuboid_answers_those_ids(
        changes: list[tuple[str, Position, Position, int]], probe: tuple[Position, Position],
        origin: Position) -> None:
    world = edited_world(changes)
    session = new_session(origin)
    (x0, y0, z0), (x1, y1, z1) = probe
    ox, oy, oz = origin
    relative = [x0 - ox, y0 - oy, z0 - oz, x1 - ox, y1 - oy, z1 - oz]
    swapped = relative[3:] + relative[:3]  # corners in either order: the same cuboid
    expected = ",".join(map(str, block_by_block(world, *probe)))
    for args in (relative, swapped):
        assert run_line(session, world, f"world.getBlocks({','.join(map(str, args))})") == expected


def test_small_ids_on_an_untouched_section_is_the_flat_profile() -> None:
    world = World()
    assert world.store.small_ids((3, 0, 3), (4, 6, 3)) == [7, 7, 3, 3, 3, 3, 3, 3, 2, 2, 0, 0, 0, 0]
    world.store.set(100, 2, 100, state_of(35, 14))  # another section: this one stays unstored
    assert world.store.small_ids((3, 4, 3), (3, 5, 3)) == [2, 0]
    assert world.store.small_ids((0, 254, 0), (1, 257, 0)) == [0] * 8  # top of the world and above
