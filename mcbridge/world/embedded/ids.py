"""The Minecraft 1.12 numbers the embedded world must know to fail where RJ fails.

Only what changes protocol behaviour lives here: which block ids exist (an unknown id makes
``world.setBlock`` reply ``Fail``), which items are swords (only they produce block hits),
which blocks let light through (``world.getHeight`` skips them), and the spawnable legacy
entity types of Bukkit 1.12 (``world.getEntityTypes``/``spawnEntity``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Block ids of 1.12: 0..252 exist, 253 and 254 are unused, 255 is the structure block.
BLOCK_IDS: frozenset[int] = frozenset(range(253)) | {255}

AIR = 0
STONE = 1
GRASS = 2
DIRT = 3
BEDROCK = 7
STANDING_SIGN = 63
WALL_SIGN = 68
SIGN_BLOCKS = frozenset({STANDING_SIGN, WALL_SIGN})

#: Wood, stone, iron, gold, diamond sword: RJ's ``blockBreakDetectionTools``.
SWORD_IDS = frozenset({268, 272, 267, 283, 276})

#: Blocks whose data is only their facing: the item placed is (id, 0) whatever the data.
#: torch, redstone torches, ladder, signs, lever, buttons, chest, furnace, dispenser, dropper
ORIENTED_IDS = frozenset({50, 75, 76, 65, 63, 68, 69, 77, 143, 54, 61, 62, 23, 158})

#: Item ids (beyond block ids) that exist in 1.12: 256..453 and the records 2256..2267.
ITEM_IDS: frozenset[int] = BLOCK_IDS | frozenset(range(256, 454)) | frozenset(range(2256, 2268))

#: Blocks with light opacity 0 in 1.12. The heightmap behind ``World.getHighestBlockYAt``
#: ignores them, so ``world.getHeight`` looks through glass, signs, torches, fences...
LIGHT_TRANSPARENT_IDS = frozenset(
    {
        0, 6, 20, 26, 27, 28, 31, 32, 34, 37, 38, 39, 40, 50, 51, 52, 54, 55, 59, 63, 64,
        65, 66, 68, 69, 70, 71, 72, 75, 76, 77, 78, 81, 83, 85, 90, 92, 93, 94, 95, 96, 101,
        102, 104, 105, 106, 107, 111, 113, 115, 116, 117, 118, 119, 120, 122, 127, 130, 131,
        132, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 154, 157,
        160, 166, 167, 171, 175, 176, 177, 178, 183, 184, 185, 186, 187, 188, 189, 190, 191,
        192, 193, 194, 195, 196, 197, 198, 199, 200, 207, 209, 217,
    }
)


@dataclass(frozen=True)
class EntityType:
    type_id: int
    name: str  # Bukkit EntityType enum name, as world.getEntityTypes prints it
    display_name: str  # what entity.getName answers (the default entity name)


def _types(*rows: tuple[int, str, str]) -> dict[int, EntityType]:
    return {type_id: EntityType(type_id, name, display) for type_id, name, display in rows}


#: Spawnable Bukkit 1.12 entity types with a legacy id, in EntityType enum order.
ENTITY_TYPES: dict[int, EntityType] = _types(
    (2, "EXPERIENCE_ORB", "Experience Orb"),
    (3, "AREA_EFFECT_CLOUD", "Area Effect Cloud"),
    (4, "ELDER_GUARDIAN", "Elder Guardian"),
    (5, "WITHER_SKELETON", "Wither Skeleton"),
    (6, "STRAY", "Stray"),
    (7, "EGG", "Thrown Egg"),
    (8, "LEASH_HITCH", "Leash Knot"),
    (9, "PAINTING", "Painting"),
    (10, "ARROW", "Arrow"),
    (11, "SNOWBALL", "Snowball"),
    (12, "FIREBALL", "Fireball"),
    (13, "SMALL_FIREBALL", "Small Fireball"),
    (14, "ENDER_PEARL", "Thrown Ender Pearl"),
    (15, "ENDER_SIGNAL", "Eye of Ender"),
    (17, "THROWN_EXP_BOTTLE", "Thrown Bottle o' Enchanting"),
    (18, "ITEM_FRAME", "Item Frame"),
    (19, "WITHER_SKULL", "Wither Skull"),
    (20, "PRIMED_TNT", "Primed TNT"),
    (23, "HUSK", "Husk"),
    (24, "SPECTRAL_ARROW", "Spectral Arrow"),
    (25, "SHULKER_BULLET", "Shulker Bullet"),
    (26, "DRAGON_FIREBALL", "Dragon Fireball"),
    (27, "ZOMBIE_VILLAGER", "Zombie Villager"),
    (28, "SKELETON_HORSE", "Skeleton Horse"),
    (29, "ZOMBIE_HORSE", "Zombie Horse"),
    (30, "ARMOR_STAND", "Armor Stand"),
    (31, "DONKEY", "Donkey"),
    (32, "MULE", "Mule"),
    (33, "EVOKER_FANGS", "Evoker Fangs"),
    (34, "EVOKER", "Evoker"),
    (35, "VEX", "Vex"),
    (36, "VINDICATOR", "Vindicator"),
    (37, "ILLUSIONER", "Illusioner"),
    (40, "MINECART_COMMAND", "Minecart with Command Block"),
    (41, "BOAT", "Boat"),
    (42, "MINECART", "Minecart"),
    (43, "MINECART_CHEST", "Minecart with Chest"),
    (44, "MINECART_FURNACE", "Minecart with Furnace"),
    (45, "MINECART_TNT", "Minecart with TNT"),
    (46, "MINECART_HOPPER", "Minecart with Hopper"),
    (47, "MINECART_MOB_SPAWNER", "Minecart with Spawner"),
    (50, "CREEPER", "Creeper"),
    (51, "SKELETON", "Skeleton"),
    (52, "SPIDER", "Spider"),
    (53, "GIANT", "Giant"),
    (54, "ZOMBIE", "Zombie"),
    (55, "SLIME", "Slime"),
    (56, "GHAST", "Ghast"),
    (57, "PIG_ZOMBIE", "Zombie Pigman"),
    (58, "ENDERMAN", "Enderman"),
    (59, "CAVE_SPIDER", "Cave Spider"),
    (60, "SILVERFISH", "Silverfish"),
    (61, "BLAZE", "Blaze"),
    (62, "MAGMA_CUBE", "Magma Cube"),
    (63, "ENDER_DRAGON", "Ender Dragon"),
    (64, "WITHER", "Wither"),
    (65, "BAT", "Bat"),
    (66, "WITCH", "Witch"),
    (67, "ENDERMITE", "Endermite"),
    (68, "GUARDIAN", "Guardian"),
    (69, "SHULKER", "Shulker"),
    (90, "PIG", "Pig"),
    (91, "SHEEP", "Sheep"),
    (92, "COW", "Cow"),
    (93, "CHICKEN", "Chicken"),
    (94, "SQUID", "Squid"),
    (95, "WOLF", "Wolf"),
    (96, "MUSHROOM_COW", "Mooshroom"),
    (97, "SNOWMAN", "Snow Golem"),
    (98, "OCELOT", "Ocelot"),
    (99, "IRON_GOLEM", "Iron Golem"),
    (100, "HORSE", "Horse"),
    (101, "RABBIT", "Rabbit"),
    (102, "POLAR_BEAR", "Polar Bear"),
    (103, "LLAMA", "Llama"),
    (104, "LLAMA_SPIT", "Llama Spit"),
    (105, "PARROT", "Parrot"),
    (120, "VILLAGER", "Villager"),
    (200, "ENDER_CRYSTAL", "Ender Crystal"),
)
