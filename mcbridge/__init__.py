"""mcbridge: bluffing games that live inside a Minecraft Java server.

Layers (each imports only the ones above it): core -> games -> world -> tables -> web.
See DESIGN.md for the map.
"""

from pathlib import Path

__version__ = "0.1.0"

#: The checkout root: seeds/ and config/ are read from here (run from a checkout or an
#: editable install, as `make` sets up).
PROJECT_ROOT = Path(__file__).resolve().parent.parent
SEEDS_DIR = PROJECT_ROOT / "seeds"
CONFIG_DIR = PROJECT_ROOT / "config"
