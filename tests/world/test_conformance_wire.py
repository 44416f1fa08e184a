"""Conformance: the wire format (protocol/raspberryjuice.md §1 and §5).

Request lines, reply order, pipelining, Fail, silence on malformed lines, empty polls,
line ends, number parsing and text encoding -- as RaspberryJuice 1.12.1 does them.
"""

from __future__ import annotations

import pytest
from mcpi.connection import RequestError
from rj_support import wait_until

# Ground truth of the flat world, in protocol coordinates (origin = spawn at y=5):
GRASS_Y, BEDROCK_Y = -1, -5
GRASS, BEDROCK, AIR = "2", "7", "0"


def test_pipelined_queries_are_answered_in_request_order(raw):
    client = raw()
    client.send(
        f"world.getBlock(0,{GRASS_Y},0)\nworld.getBlock(0,{BEDROCK_Y},0)\n"
        "world.getBlock(0,3,0)\nworld.getBlockWithData(0,-2,0)\n"
    )
    assert client.lines(4) == [GRASS, BEDROCK, AIR, "3,0"]


def test_setters_send_nothing_on_success(raw, spot):
    x, y, z = spot
    client = raw()
    client.send(f"world.setBlock({x},{y},{z},1)\nchat.post(hello)\nworld.getBlock({x},{y},{z})\n")
    assert client.line() == "1"  # the first line is the query's answer


@pytest.mark.parametrize(
    "request_line",
    # (RaspberryJamMod's world.getBlocksWithData is no longer here: both servers have it, listed
    # as the blocks_with_data capability, test_conformance_region_reads.py; its getBlockWithNBT is)
    ["no.such.command()", "world.getblock(0,0,0)", "world.getBlockWithNBT(0,0,0)",
     "player.setGameMode(1)", "setPlayer(alice)", "auth(token)"],
)
def test_unknown_commands_fail(raw, request_line):
    assert raw().ask(request_line) == "Fail"


@pytest.mark.parametrize(
    "request_line",
    # The exact lines mcpi 1.2.1 sends for Pi-only API calls RaspberryJuice lacks.
    ["world.checkpoint.save()", "world.checkpoint.restore()", "world.setting(world_immutable,1)",
     "player.setting(autojump,0)", "camera.mode.setNormal()", "camera.mode.setFixed()",
     "camera.mode.setFollow()", "camera.setPos(1,2,3)"],
)
def test_pi_only_commands_fail(raw, request_line):
    assert raw().ask(request_line) == "Fail"


def test_a_failing_setter_produces_one_stray_fail(raw, spot):
    x, y, z = spot
    client = raw()
    client.send(f"world.setBlock({x},{y},{z},253)\nworld.getBlock({x},{y},{z})\n")
    assert client.lines(2) == ["Fail", AIR]


def test_stock_mcpi_reports_fail_as_request_error(mc):
    with pytest.raises(RequestError):
        mc.getPlayerEntityId("nobody-by-this-name")


@pytest.mark.parametrize(
    "malformed",
    [b"garbage", b"", b"   ", b"world.getBlock", b"world.getBlock(", b"(", b"0,0,0)"],
    ids=["no-paren", "blank", "spaces", "name-only", "paren-last", "lone-paren", "no-name"],
)
def test_malformed_lines_get_no_reply(raw, malformed):
    client = raw()
    client.send(malformed + b"\n" + f"world.getBlock(0,{BEDROCK_Y},0)\n".encode())
    assert client.line() == BEDROCK  # nothing came back for the malformed line


def test_the_last_character_is_dropped_unchecked(raw):
    client = raw()
    client.send(
        f"world.getBlock(0,{GRASS_Y},0]\n"  # any last character closes the call
        f"world.getBlock(0,{GRASS_Y},0\n"  # ...so here the '0' is lost: two args, Fail
        "()\n"  # empty command name: unknown command
    )
    assert client.lines(3) == [GRASS, "Fail", "Fail"]


def test_cr_lf_and_crlf_all_end_a_line(raw):
    client = raw()
    client.send(
        f"world.getBlock(0,{GRASS_Y},0)\rworld.getBlock(0,{BEDROCK_Y},0)\r\n"
        "world.getBlock(0,2,0)\n"
    )
    assert client.lines(3) == [GRASS, BEDROCK, AIR]


def test_empty_polls_answer_an_empty_line(raw):
    client = raw()
    client.send("events.block.hits()\nevents.chat.posts()\nevents.projectile.hits()\n")
    assert client.lines(3) == ["", "", ""]


@pytest.mark.parametrize(
    ("coords", "expected"),
    [
        ("0.9,-1.2,0.7", GRASS),  # 0.9 -> 0, -1.2 -> -1: truncation toward zero
        ("0,-0.5,0", AIR),  # -0.5 truncates to 0 (air), not down to -1 (grass)
        ("0,-1.9,0", GRASS),
        ("0,-5.99,0", BEDROCK),
        (" 0 ,\t-1 ,0", GRASS),  # Double.parseDouble trims whitespace
        ("0e0,-1e0,0d", GRASS),  # exponents and Java's d/f suffixes
        ("0,-1,+0", GRASS),
    ],
)
def test_block_coordinates_parse_as_double_then_truncate(raw, coords, expected):
    assert raw().ask(f"world.getBlock({coords})") == expected


@pytest.mark.parametrize(
    "request_line",
    [
        "world.getBlock(0,x,0)",
        "world.getBlock(0,0x10,0)",
        "world.getBlock(0,1_0,0)",
        "world.getBlock(0,inf,0)",
        "world.getBlock(0,0)",
        "world.getBlock()",
        "world.setBlock(0,0,0,1.0)",  # block id is Integer.parseInt
        "world.setBlock(0,0,0, 1)",  # ...which does not trim
        "world.setBlock(0,0,0,1,x)",
        "world.setBlock(0,0,0,1,128)",  # data is Byte.parseByte
        "world.setBlock(0,0,0,99999999999)",
    ],
)
def test_bad_arguments_fail(raw, request_line):
    assert raw().ask(request_line) == "Fail"


def test_ten_thousand_pipelined_queries_keep_their_order(raw):
    client = raw()
    client.send(
        "".join(f"world.getBlock(0,{GRASS_Y if i % 2 else BEDROCK_Y},0)\n" for i in range(10_000))
    )
    replies = client.lines(10_000)
    assert replies == [GRASS if i % 2 else BEDROCK for i in range(10_000)]


def test_text_is_utf8_and_invalid_bytes_become_replacement_characters(raw, join):
    listener = join("utf")
    client = raw()
    client.send("chat.post(Grüße 日本 ✓)\n".encode() + b"chat.post(caf\xc3\xa9 \xff\xfe!)\n")
    heard = wait_until(
        lambda: [line for line in listener.chat_heard() if "caf" in line], what="chat"
    )
    assert "Grüße 日本 ✓" in listener.chat_heard()
    assert heard == ["café \ufffd\ufffd!"]


def test_chat_post_keeps_commas_but_loses_trailing_ones(mc, raw, join):
    listener = join("commas")
    mc.postToChat("one, two,,three")
    mc.postToChat("trailing,,")
    wait_until(lambda: "trailing" in listener.chat_heard(), what="chat")
    assert "one, two,,three" in listener.chat_heard()
    client = raw()
    client.send(f"chat.post(,,,)\nworld.getBlock(0,{BEDROCK_Y},0)\n")
    assert client.lines(2) == ["Fail", BEDROCK]  # nothing left after Java's split
