"""Schematics (nbtlib), arena layouts as block grids, and the paste/diff planner.

* `schematic`: read Sponge .schem v1-3, MCEdit .schematic, structure .nbt; write all but v1.
* `states` + `data/legacy_states.yaml`: legacy id:data <-> 1.13+ block states.
* `grid`: `BlockGrid`, the legacy block box every part shares.
* `merge`, `planner`: cells -> few boxes -> ordered commands, in ticks.
* `live`, `diff`, `operations`: read a region, compare, paste, export, repair.
* `arena`: an arena YAML's layout as a grid (`worldgen build`); `cli`: the commands.
"""
