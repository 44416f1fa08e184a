"""The reconciler on its own: exactly which commands a scene change costs (issue 20, item 1).

The recovery and runtime tests show the world heals; these pin *what goes out*: nothing for an
unchanged scene, one command per changed cell, a full re-render after `forget`, the cells named
by `forget_cells` and no others, and the private-booth rules (the world sees the neutral block
and blank signs, the viewer sees the part, an old viewer's overlays are cleared). Each case is a
scripted scene sequence and the exact command lines it produces, in world coordinates of an
arena that is moved and turned, so a lost rotation or a dropped command shows.
"""

from __future__ import annotations

from mcbridge.tables.kit import Scene
from mcbridge.tables.reconcile import Reconciler
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Cuboid, Pos

FRAME = ArenaFrame.of((100, 64, 200), "east")
STONE, WOOL, GLASS = Block(1), Block(35, 14), Block(20)
WALL = Block(5, 2)
SIGN = Block(68, 2)  # a wall sign facing local north: its data turns with the arena
A, B, C = Pos(0, 0, 0), Pos(1, 0, 0), Pos(0, 1, 2)
BOOTH = Cuboid(Pos(-5, 0, -5), Pos(-3, 2, -3))


def world(local: Pos) -> str:
    at = FRAME.to_world(local)
    return f"{at.x},{at.y},{at.z}"


def turned(block: Block) -> str:
    b = FRAME.block_to_world(block)
    return f"{b.id},{b.data}"


def lines(batch: Batch) -> list[str]:
    return [str(item.command) for item in batch.items]


def write(rec: Reconciler, scene: Scene, viewers: list[str | None] | None = None) -> tuple[int, list[str]]:
    batch = Batch()
    added = rec.write(batch, scene, viewers)
    assert added == len(batch), "write() must count exactly the commands it added"
    return added, lines(batch)


def set_block(local: Pos, block: Block) -> str:
    return f"world.setBlock({world(local)},{turned(block)})"


def set_sign(local: Pos, block: Block, text: list[str]) -> str:
    return f"world.setSign({world(local)},{turned(block)},{','.join(text)})"


def test_turned_arena_blocks_go_out_once_in_world_coordinates() -> None:
    rec = Reconciler(FRAME)
    scene = Scene(blocks={A: STONE, B: WOOL, C: SIGN})
    assert turned(SIGN) != "68,2", "the test arena must turn sign data"
    assert write(rec, scene)[1] == [set_block(A, STONE), set_block(B, WOOL), set_block(C, SIGN)]
    assert write(rec, scene) == (0, [])  # the same object: skipped
    assert write(rec, Scene(blocks={A: STONE, B: WOOL, C: SIGN})) == (0, [])  # equal: no command
    assert write(rec, Scene(blocks={A: STONE, B: GLASS, C: SIGN})) == (1, [set_block(B, GLASS)])


def test_signs_send_text_with_blank_lines_as_a_space_and_again_when_the_block_changes() -> None:
    rec = Reconciler(FRAME)
    first = Scene(blocks={A: SIGN}, signs={A: ("Bid", "", "3", "")})
    assert write(rec, first)[1] == [set_sign(A, SIGN, ["Bid", " ", "3", " "])]
    assert write(rec, Scene(blocks={A: SIGN}, signs={A: ("Bid", "", "3", "")})) == (0, [])
    assert write(rec, Scene(blocks={A: SIGN}, signs={A: ("Bid", "", "4", "")}))[1] == [
        set_sign(A, SIGN, ["Bid", " ", "4", " "])
    ]
    standing = Block(63, 0)
    assert write(rec, Scene(blocks={A: standing}, signs={A: ("Bid", "", "4", "")}))[1] == [
        set_sign(A, standing, ["Bid", " ", "4", " "])
    ]


def test_sign_text_without_a_block_uses_the_block_written_before_or_is_skipped() -> None:
    rec = Reconciler(FRAME)
    write(rec, Scene(blocks={A: SIGN}))
    # text for A, whose block an earlier scene wrote; text for B, whose block nobody wrote
    out = write(rec, Scene(signs={A: ("hi", "", "", ""), B: ("lost", "", "", "")}))
    assert out == (1, [set_sign(A, SIGN, ["hi", " ", " ", " "])])
    assert write(rec, Scene(signs={A: ("hi", "", "", ""), B: ("lost", "", "", "")})) == (0, [])


def test_forget_re_renders_everything_and_forget_cells_only_those_cells() -> None:
    rec = Reconciler(FRAME)
    scene = Scene(blocks={A: STONE, B: WOOL, C: SIGN}, signs={C: ("x", "y", "z", "w")})
    write(rec, scene)
    rec.forget_cells([])
    assert write(rec, scene) == (0, []), "forgetting no cell changes nothing"
    rec.forget_cells([B])
    assert write(rec, scene) == (1, [set_block(B, WOOL)])
    rec.forget_cells([C])
    assert write(rec, scene) == (1, [set_sign(C, SIGN, ["x", "y", "z", "w"])])
    rec.forget()
    assert write(rec, scene)[1] == [
        set_block(A, STONE), set_block(B, WOOL), set_sign(C, SIGN, ["x", "y", "z", "w"])
    ]


def test_only_a_changed_part_costs_commands() -> None:
    rec = Reconciler(FRAME)
    fixed = Scene(blocks={A: STONE})
    assert write(rec, Scene.of_parts([fixed, Scene(blocks={B: WOOL, C: WOOL})]))[1] == [
        set_block(A, STONE), set_block(B, WOOL), set_block(C, WOOL)
    ]
    assert write(rec, Scene.of_parts([fixed, Scene(blocks={B: GLASS, C: WOOL})]))[1] == [set_block(B, GLASS)]
    assert write(rec, Scene.of_parts([fixed])) == (0, [])


def test_a_cell_a_later_part_overwrote_is_restored_when_that_part_goes() -> None:
    rec = Reconciler(FRAME)
    fixed = Scene(blocks={A: STONE})
    assert write(rec, Scene.of_parts([fixed, Scene(blocks={A: GLASS})]))[1] == [
        set_block(A, STONE), set_block(A, GLASS)
    ]
    assert write(rec, Scene.of_parts([fixed, Scene(blocks={B: WOOL})]))[1] == [
        set_block(A, STONE), set_block(B, WOOL)
    ]


def test_private_part_shows_the_world_neutral_blocks_and_blank_signs_and_the_viewer_the_part() -> None:
    rec = Reconciler(FRAME, WALL, [BOOTH])
    hand = Scene(blocks={A: WOOL, C: SIGN}, signs={C: ("3 red", "", "", "")}, booth=0)
    scene = Scene.of_parts([Scene(blocks={B: STONE}), hand])
    out = write(rec, scene, ["Alice"])[1]
    assert out == [
        set_block(B, STONE),
        set_block(A, WALL),
        set_sign(C, SIGN, [" ", " ", " ", " "]),
        f"mcbridge.private.setBlock(Alice,{world(A)},{turned(WOOL)})",
        f"mcbridge.private.setSign(Alice,{world(C)},{turned(SIGN)},3 red, , , )",
    ]
    assert write(rec, scene, ["Alice"]) == (0, [])
    # a new part object with one changed cell: the viewer gets only that cell
    hand2 = Scene(blocks={A: GLASS, C: SIGN}, signs={C: ("3 red", "", "", "")}, booth=0)
    assert write(rec, Scene.of_parts([Scene(blocks={B: STONE}), hand2]), ["Alice"])[1] == [
        f"mcbridge.private.setBlock(Alice,{world(A)},{turned(GLASS)})"
    ]
    hand3 = Scene(blocks={A: GLASS, C: SIGN}, signs={C: ("2 red", "", "", "")}, booth=0)
    assert write(rec, Scene.of_parts([Scene(blocks={B: STONE}), hand3]), ["Alice"])[1] == [
        f"mcbridge.private.setSign(Alice,{world(C)},{turned(SIGN)},2 red, , , )"
    ]


def test_without_viewers_a_private_part_is_drawn_in_the_world() -> None:
    rec = Reconciler(FRAME, WALL, [BOOTH])
    hand = Scene(blocks={A: WOOL}, booth=0)
    assert write(rec, Scene.of_parts([hand]))[1] == [set_block(A, WOOL)]


def test_a_new_viewer_clears_the_old_viewers_booth_and_gets_the_part() -> None:
    rec = Reconciler(FRAME, WALL, [BOOTH])
    scene = Scene.of_parts([Scene(blocks={A: WOOL}, booth=0)])
    assert write(rec, scene, [None])[1] == [set_block(A, WALL)], "nobody sits: nothing private"
    assert write(rec, scene, [None]) == (0, [])
    assert write(rec, scene, ["Alice"])[1] == [f"mcbridge.private.setBlock(Alice,{world(A)},{turned(WOOL)})"]
    box = FRAME.cuboid_to_world(BOOTH)
    corners = f"{box.lo.x},{box.lo.y},{box.lo.z},{box.hi.x},{box.hi.y},{box.hi.z}"
    assert write(rec, scene, ["Bob"])[1] == [
        f"mcbridge.private.clear(Alice,{corners})",
        f"mcbridge.private.setBlock(Bob,{world(A)},{turned(WOOL)})",
    ]
    assert write(rec, scene, [None])[1] == [f"mcbridge.private.clear(Bob,{corners})"]


def test_a_booth_without_a_cuboid_or_a_viewer_entry_is_never_cleared_nor_shown() -> None:
    rec = Reconciler(FRAME, WALL)  # no booth cuboids known
    scene = Scene.of_parts([Scene(blocks={A: WOOL}, booth=0), Scene(blocks={B: WOOL}, booth=1)])
    assert write(rec, scene, ["Alice"])[1] == [
        set_block(A, WALL), f"mcbridge.private.setBlock(Alice,{world(A)},{turned(WOOL)})", set_block(B, WALL)
    ]
    assert write(rec, scene, ["Bob"])[1] == [f"mcbridge.private.setBlock(Bob,{world(A)},{turned(WOOL)})"]


def test_two_private_parts_of_one_booth_are_sent_merged_and_again_after_forget() -> None:
    rec = Reconciler(FRAME, WALL, [BOOTH])
    one, two = Scene(blocks={A: WOOL}, booth=0), Scene(blocks={C: GLASS}, booth=0)
    scene = Scene.of_parts([one, two])
    assert write(rec, scene, ["Alice"])[1] == [
        set_block(A, WALL), set_block(C, WALL),
        f"mcbridge.private.setBlock(Alice,{world(A)},{turned(WOOL)})",
        f"mcbridge.private.setBlock(Alice,{world(C)},{turned(GLASS)})",
    ]
    assert write(rec, Scene.of_parts([one, two]), ["Alice"]) == (0, [])
    rec.forget()
    assert write(rec, scene, ["Alice"])[1] == [
        set_block(A, WALL), set_block(C, WALL),
        f"mcbridge.private.setBlock(Alice,{world(A)},{turned(WOOL)})",
        f"mcbridge.private.setBlock(Alice,{world(C)},{turned(GLASS)})",
    ]


def test_a_scene_with_more_parts_than_the_last_is_written_whole() -> None:
    rec = Reconciler(FRAME)
    fixed = Scene(blocks={A: STONE})
    assert write(rec, Scene.of_parts([fixed]))[1] == [set_block(A, STONE)]
    assert write(rec, Scene.of_parts([fixed, Scene(blocks={B: WOOL})]))[1] == [set_block(B, WOOL)]


def test_a_private_part_of_a_booth_past_the_viewer_list_or_the_cuboids_is_nobodys() -> None:
    rec = Reconciler(FRAME, WALL, [BOOTH])  # one booth cuboid; parts for booths 0 and 2
    scene = Scene.of_parts([Scene(blocks={A: WOOL}, booth=0), Scene(blocks={B: WOOL}, booth=2)])
    assert write(rec, scene, ["Alice"])[1] == [
        set_block(A, WALL),
        f"mcbridge.private.setBlock(Alice,{world(A)},{turned(WOOL)})",
        set_block(B, WALL),
    ]
    # booth 2 gets viewers, then another: no cuboid to clear, so only the new viewer's part
    assert write(rec, scene, ["Alice", None, "Bob"])[1] == [f"mcbridge.private.setBlock(Bob,{world(B)},{turned(WOOL)})"]
    assert write(rec, scene, ["Alice", None, "Cy"])[1] == [f"mcbridge.private.setBlock(Cy,{world(B)},{turned(WOOL)})"]
