"""Conformance: spawning, listing and removing entities (protocol/raspberryjuice.md §2)."""

from __future__ import annotations

import pytest
from mcpi.connection import RequestError
from mcpi.vec3 import Vec3

PIG, SHEEP, COW, CHICKEN, ZOMBIE, ARMOR_STAND = 90, 91, 92, 93, 54, 30


def test_entity_types_list_spawnable_legacy_ids(mc):
    types = {entity.id: entity.name for entity in mc.getEntityTypes()}
    for type_id, name in [(PIG, "PIG"), (SHEEP, "SHEEP"), (COW, "COW"), (CHICKEN, "CHICKEN"),
                          (ZOMBIE, "ZOMBIE"), (ARMOR_STAND, "ARMOR_STAND"), (120, "VILLAGER")]:
        assert types[type_id] == name
    assert 1 not in types  # dropped items cannot be spawned
    assert all(type_id >= 0 for type_id in types)


def test_the_entity_types_reply_ends_with_a_bar(raw):
    reply = raw().ask("world.getEntityTypes()")
    assert reply.endswith("|") and "90,PIG|" in reply


def test_spawn_then_list_then_remove(rj_server, mc, spot):
    x, y, z = spot
    pig = mc.spawnEntity(x + 0.7, y, z - 0.2, PIG)  # truncated toward zero, no floor
    tile = Vec3(int(x + 0.7), y, int(z - 0.2))  # int() truncates toward zero too
    assert mc.entity.getTilePos(pig) == tile
    assert mc.entity.getName(pig) == "Pig"
    [record] = [e for e in mc.getEntities(PIG) if e[0] == pig]
    ox, oy, oz = _origin(rj_server)
    assert record[1:3] == [PIG, "PIG"]
    assert record[3:] == [tile.x + ox, tile.y + oy, tile.z + oz]  # absolute doubles
    assert mc.removeEntity(pig) == 1
    assert mc.removeEntity(pig) == 0
    assert pig not in [e[0] for e in mc.getEntities(-1)]
    with pytest.raises(RequestError):
        mc.entity.getPos(pig)


def test_entity_lists_never_contain_players(mc, join, spot):
    player = join("notmob")
    pig = mc.spawnEntity(*spot, PIG)
    assert player.entity_id not in [e[0] for e in mc.getEntities(-1)]
    pigs = mc.getEntities(PIG)
    assert pig in [e[0] for e in pigs] and {e[1] for e in pigs} == {PIG}
    mc.removeEntity(pig)


def test_remove_entities_by_type_counts_what_it_removed(mc, spot):
    x, y, z = spot
    before = len(mc.getEntities(SHEEP))
    for dx in range(3):
        mc.spawnEntity(x + dx, y, z, SHEEP)
    chicken = mc.spawnEntity(x, y, z + 2, CHICKEN)
    assert mc.removeEntities(SHEEP) == before + 3
    assert mc.getEntities(SHEEP) == []
    assert chicken in [e[0] for e in mc.getEntities(CHICKEN)]
    mc.removeEntity(chicken)


def test_entities_near_the_player(mc, join, spot):
    join("shepherd")
    x, y, z = spot
    mc.player.setTilePos(x, y, z)
    near = mc.spawnEntity(x + 3, y, z, COW)
    far = mc.spawnEntity(x + 6, y, z + 6, COW)
    found = [e[0] for e in mc.player.getEntities(5, COW)]
    assert near in found and far not in found
    assert mc.player.removeEntities(5, COW) == 1
    assert far in [e[0] for e in mc.getEntities(COW)]
    mc.removeEntity(far)


def test_unknown_entity_types_fail(raw, spot):
    x, y, z = spot
    client = raw()
    client.send(
        f"world.spawnEntity({x},{y},{z},1)\nworld.spawnEntity({x},{y},{z},9999)\n"
        f"world.spawnEntity({x},{y},{z},PIG)\n"
    )
    assert client.lines(3) == ["Fail", "Fail", "Fail"]


def _origin(server) -> tuple[int, int, int]:
    origin = getattr(server, "origin", None)
    if origin is None:
        pytest.skip("the server handle does not say where its origin is")
    return origin
