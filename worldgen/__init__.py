"""Schematics (nbtlib), arena layouts as block grids, and the paste/diff planner."""
