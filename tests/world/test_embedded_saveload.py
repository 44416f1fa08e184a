"""Saving and loading the embedded world."""

from __future__ import annotations

import numpy as np
import pytest
from rj_support import connect_mcpi

from mcbridge.world.embedded import WorldFileError, load_world, save_world, start_embedded
from mcbridge.world.embedded.world import World


def test_round_trip_of_blocks_signs_and_mobs(tmp_path):
    path = tmp_path / "arena.npz"
    with start_embedded(tps=0, world_file=path) as server:
        mc = connect_mcpi(server.host, server.port)
        mc.setBlocks(-3, 0, -3, 3, 2, 3, 35, 14)
        mc.setBlock(40, 10, 40, 57)
        mc.setSign(0, 3, 0, 63, 4, "Wool", "Bluff")
        pig = mc.spawnEntity(5, 0, 5, 90)
        mc.getBlock(0, 0, 0)  # fence
        server.save()
        mc.conn.socket.close()
    with start_embedded(tps=0, world_file=path) as server:
        mc = connect_mcpi(server.host, server.port)
        assert set(mc.getBlocks(-3, 0, -3, 3, 2, 3)) == {35}
        assert server.get_block(3, 2, 3) == (35, 14)
        assert mc.getBlock(40, 10, 40) == 57
        assert server.sign_lines(0, 3, 0) == ("Wool", "Bluff", "", "")
        assert [e[0] for e in mc.getEntities(90)] == [pig]
        assert mc.spawnEntity(1, 0, 1, 91) > pig  # entity ids are not reused
        assert list(mc.getBlocks(9, -5, 9, 9, 0, 9)) == [7, 3, 3, 3, 2, 0]
        mc.conn.socket.close()


def test_an_untouched_world_saves_tiny_and_a_full_region_compactly(tmp_path):
    world = World()
    save_world(world, tmp_path / "empty.npz")
    assert (tmp_path / "empty.npz").stat().st_size < 2000
    rng = np.random.default_rng(7)
    for x in range(-128, 128, 16):
        world.store.fill((x, 0, -128), (x + 15, 63, 127), int(rng.integers(1, 200)) << 4)
    save_world(world, tmp_path / "full.npz")
    size = (tmp_path / "full.npz").stat().st_size
    assert size < 512 * 1024  # 8 MiB of sections, mostly uniform
    loaded = load_world(tmp_path / "full.npz")
    assert np.array_equal(
        loaded.store.read((-128, 0, -128), (127, 63, 127)),
        world.store.read((-128, 0, -128), (127, 63, 127)),
    )


def test_saving_replaces_the_file_atomically(tmp_path):
    path = tmp_path / "w.npz"
    world = World()
    world.set_block(1, 5, 1, 1)
    save_world(world, path)
    world.set_block(1, 5, 1, 2)
    save_world(world, path)
    assert load_world(path).get_block(1, 5, 1) == (2, 0)
    assert [p.name for p in tmp_path.iterdir()] == ["w.npz"]


def test_a_foreign_or_broken_file_is_refused_clearly(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(WorldFileError, match="not an embedded-world save"):
        load_world(junk)
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array('{"format": "something else"}'), keys=np.zeros((0, 3)),
             sections=np.zeros((0, 16, 16, 16)))
    with pytest.raises(WorldFileError, match="format 'something else'"):
        load_world(other)


def test_a_missing_world_file_starts_a_fresh_world(tmp_path):
    with start_embedded(tps=0, world_file=tmp_path / "new.npz") as server:
        assert server.get_block(0, -1, 0) == (2, 0)
        server.save()
    assert (tmp_path / "new.npz").exists()
