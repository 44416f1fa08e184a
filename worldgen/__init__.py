"""Schematics (nbtlib), arena layouts as block grids, and the paste/diff planner.

* `schematic`: read Sponge .schem v1-3, MCEdit .schematic, structure .nbt, Litematica
  .litematic; write all but v1 and Litematica. `nbt`: the bounded NBT reader under it.
* `states` + `data/`: legacy id:data <-> block states, generated from minecraft-data's
  legacy.json (vendored; `data/regenerate.py`) plus `legacy_states.yaml`.
* `grid`: `BlockGrid`, the legacy block box every part shares.
* `merge`, `planner`: cells -> few boxes -> ordered commands, in ticks.
* `live`, `diff`, `operations`: read a region, compare, paste, export, repair;
  `resume`: where a stopped paste is recorded for `--resume`.
* `arena`: an arena YAML's layout as a grid (`worldgen build`); `cli`: the commands.
"""
