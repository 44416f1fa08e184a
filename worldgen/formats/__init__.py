"""One module per file format; `worldgen.schematic` picks the right one."""
