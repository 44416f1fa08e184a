'use strict'
/**
 * Entities as RaspberryJuice sees them: players and mobs by id, Bukkit 1.12 entity types, and
 * the motion commands (setPos, setRotation, ...) that work on both.
 *
 * RJ looks an id up among the online players first, then among the world's other entities, and
 * speaks Bukkit's EntityType: legacy numeric ids and enum names, listing only "spawnable" types
 * (players, dropped items, falling blocks and a few others never appear). flying-squid knows
 * mobs and objects by vanilla names, so this module maps between the two. flying-squid can
 * spawn living mobs only; asking for any other type fails here, while Bukkit would spawn it.
 *
 * flying-squid keeps yaw and pitch only as protocol bytes (bug 7 in notes/flying-squid.md) and
 * re-sends those bytes as degrees on teleport, which turns the player. The exact angles are
 * therefore kept here (from the client's own packets for players), and teleports write their
 * own position packets. Like a vanilla server, the bridge ignores a player's movement packets
 * between a teleport and the client's confirmation, so a stale "I am still here" from the client
 * cannot undo the teleport.
 */
const { Vec3 } = require('vec3')
const J = require('./java')

/**
 * Bukkit 1.12 EntityType values with an id, in declaration order (the order of
 * world.getEntityTypes): [typeId, enum name, vanilla name, default display name, spawnable].
 */
const ENTITY_TYPES = [
  [1, 'DROPPED_ITEM', 'item', 'Item', false],
  [2, 'EXPERIENCE_ORB', 'xp_orb', 'Experience Orb', true],
  [3, 'AREA_EFFECT_CLOUD', 'area_effect_cloud', 'Area Effect Cloud', true],
  [4, 'ELDER_GUARDIAN', 'elder_guardian', 'Elder Guardian', true],
  [5, 'WITHER_SKELETON', 'wither_skeleton', 'Wither Skeleton', true],
  [6, 'STRAY', 'stray', 'Stray', true],
  [7, 'EGG', 'egg', 'Thrown Egg', true],
  [8, 'LEASH_HITCH', 'leash_knot', 'Leash Knot', true],
  [9, 'PAINTING', 'painting', 'Painting', true],
  [10, 'ARROW', 'arrow', 'Arrow', true],
  [11, 'SNOWBALL', 'snowball', 'Snowball', true],
  [12, 'FIREBALL', 'fireball', 'Fireball', true],
  [13, 'SMALL_FIREBALL', 'small_fireball', 'Small Fireball', true],
  [14, 'ENDER_PEARL', 'ender_pearl', 'Thrown Ender Pearl', true],
  [15, 'ENDER_SIGNAL', 'eye_of_ender_signal', 'Eye of Ender', true],
  [16, 'SPLASH_POTION', 'potion', 'Potion', false],
  [17, 'THROWN_EXP_BOTTLE', 'xp_bottle', 'Thrown Bottle o\' Enchanting', true],
  [18, 'ITEM_FRAME', 'item_frame', 'Item Frame', true],
  [19, 'WITHER_SKULL', 'wither_skull', 'Wither Skull', true],
  [20, 'PRIMED_TNT', 'tnt', 'Primed TNT', true],
  [21, 'FALLING_BLOCK', 'falling_block', 'Falling Block', false],
  [22, 'FIREWORK', 'fireworks_rocket', 'Firework Rocket', false],
  [23, 'HUSK', 'husk', 'Husk', true],
  [24, 'SPECTRAL_ARROW', 'spectral_arrow', 'Spectral Arrow', true],
  [25, 'SHULKER_BULLET', 'shulker_bullet', 'Shulker Bullet', true],
  [26, 'DRAGON_FIREBALL', 'dragon_fireball', 'Dragon Fireball', true],
  [27, 'ZOMBIE_VILLAGER', 'zombie_villager', 'Zombie Villager', true],
  [28, 'SKELETON_HORSE', 'skeleton_horse', 'Skeleton Horse', true],
  [29, 'ZOMBIE_HORSE', 'zombie_horse', 'Zombie Horse', true],
  [30, 'ARMOR_STAND', 'armor_stand', 'Armor Stand', true],
  [31, 'DONKEY', 'donkey', 'Donkey', true],
  [32, 'MULE', 'mule', 'Mule', true],
  [33, 'EVOKER_FANGS', 'evocation_fangs', 'Evoker Fangs', true],
  [34, 'EVOKER', 'evocation_illager', 'Evoker', true],
  [35, 'VEX', 'vex', 'Vex', true],
  [36, 'VINDICATOR', 'vindication_illager', 'Vindicator', true],
  [37, 'ILLUSIONER', 'illusion_illager', 'Illusioner', true],
  [40, 'MINECART_COMMAND', 'commandblock_minecart', 'Minecart with Command Block', true],
  [41, 'BOAT', 'boat', 'Boat', true],
  [42, 'MINECART', 'minecart', 'Minecart', true],
  [43, 'MINECART_CHEST', 'chest_minecart', 'Minecart with Chest', true],
  [44, 'MINECART_FURNACE', 'furnace_minecart', 'Minecart with Furnace', true],
  [45, 'MINECART_TNT', 'tnt_minecart', 'Minecart with TNT', true],
  [46, 'MINECART_HOPPER', 'hopper_minecart', 'Minecart with Hopper', true],
  [47, 'MINECART_MOB_SPAWNER', 'spawner_minecart', 'Minecart with Spawner', true],
  [50, 'CREEPER', 'creeper', 'Creeper', true],
  [51, 'SKELETON', 'skeleton', 'Skeleton', true],
  [52, 'SPIDER', 'spider', 'Spider', true],
  [53, 'GIANT', 'giant', 'Giant', true],
  [54, 'ZOMBIE', 'zombie', 'Zombie', true],
  [55, 'SLIME', 'slime', 'Slime', true],
  [56, 'GHAST', 'ghast', 'Ghast', true],
  [57, 'PIG_ZOMBIE', 'zombie_pigman', 'Zombie Pigman', true],
  [58, 'ENDERMAN', 'enderman', 'Enderman', true],
  [59, 'CAVE_SPIDER', 'cave_spider', 'Cave Spider', true],
  [60, 'SILVERFISH', 'silverfish', 'Silverfish', true],
  [61, 'BLAZE', 'blaze', 'Blaze', true],
  [62, 'MAGMA_CUBE', 'magma_cube', 'Magma Cube', true],
  [63, 'ENDER_DRAGON', 'ender_dragon', 'Ender Dragon', true],
  [64, 'WITHER', 'wither', 'Wither', true],
  [65, 'BAT', 'bat', 'Bat', true],
  [66, 'WITCH', 'witch', 'Witch', true],
  [67, 'ENDERMITE', 'endermite', 'Endermite', true],
  [68, 'GUARDIAN', 'guardian', 'Guardian', true],
  [69, 'SHULKER', 'shulker', 'Shulker', true],
  [90, 'PIG', 'pig', 'Pig', true],
  [91, 'SHEEP', 'sheep', 'Sheep', true],
  [92, 'COW', 'cow', 'Cow', true],
  [93, 'CHICKEN', 'chicken', 'Chicken', true],
  [94, 'SQUID', 'squid', 'Squid', true],
  [95, 'WOLF', 'wolf', 'Wolf', true],
  [96, 'MUSHROOM_COW', 'mooshroom', 'Mooshroom', true],
  [97, 'SNOWMAN', 'snowman', 'Snow Golem', true],
  [98, 'OCELOT', 'ocelot', 'Ocelot', true],
  [99, 'IRON_GOLEM', 'villager_golem', 'Iron Golem', true],
  [100, 'HORSE', 'horse', 'Horse', true],
  [101, 'RABBIT', 'rabbit', 'Rabbit', true],
  [102, 'POLAR_BEAR', 'polar_bear', 'Polar Bear', true],
  [103, 'LLAMA', 'llama', 'Llama', true],
  [104, 'LLAMA_SPIT', 'llama_spit', 'Llama Spit', true],
  [105, 'PARROT', 'parrot', 'Parrot', true],
  [120, 'VILLAGER', 'villager', 'Villager', true],
  [200, 'ENDER_CRYSTAL', 'ender_crystal', 'Ender Crystal', true]
].map(([typeId, name, vanilla, displayName, spawnable]) => ({ typeId, name, vanilla, displayName, spawnable }))

const BY_ID = new Map(ENTITY_TYPES.map((t) => [t.typeId, t]))
const BY_VANILLA = new Map(ENTITY_TYPES.map((t) => [t.vanilla, t]))
/** Types that flying-squid spawns as living mobs in 1.12 (spawn_entity_living). */
const LIVING = new Set([4, 5, 6, 23, 27, 28, 29, 31, 32, 34, 35, 36, 37, 50, 51, 52, 53, 54, 55, 56, 57,
  58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102,
  103, 105, 120])
/** How long a teleport waits for the client's confirmation before movement counts again. */
const TELEPORT_CONFIRM_MS = 3000
let nextTeleportId = 1000

function isPlayer (entity) {
  return entity.type === 'player'
}

/** The Bukkit type of a non-player entity, or null (unknown objects). */
function typeOf (serv, entity) {
  if (entity.type === 'mob') return BY_ID.get(entity.entityType) || null
  if (entity.type === 'object') {
    const def = serv.registry.objects[entity.entityType]
    return (def && BY_VANILLA.get(def.name)) || null
  }
  return null
}

/** RJ's plugin.getEntity: an online player, else another entity of the world, else null. */
function byId (serv, id) {
  const player = serv.players.find((p) => p.id === id)
  if (player) return player
  const entity = serv.entities[id]
  return entity && !isPlayer(entity) && entity.world === serv.overworld ? entity : null
}

/** What entity.getName answers: the player list name, or the entity type's default name. */
function nameOf (serv, entity) {
  if (isPlayer(entity)) return entity.username
  const type = typeOf(serv, entity)
  return type ? type.displayName : String(entity.name)
}

// -- players: exact angles and teleports ---------------------------------------------------

/** Start tracking a player's exact angles and teleport confirmations (once, on join). */
function trackPlayer (player) {
  player.rjRotation = { yaw: 0, pitch: 0 }
  const update = ({ yaw, pitch }) => {
    if (teleportPending(player)) return
    if (typeof yaw === 'number' && typeof pitch === 'number') {
      player.rjRotation = { yaw: Math.fround(yaw), pitch: Math.fround(pitch) }
    }
  }
  player._client.on('look', update)
  player._client.on('position_look', update)
  player._client.on('teleport_confirm', ({ teleportId }) => {
    if (player.rjTeleport && teleportId === player.rjTeleport.id) player.rjTeleport = null
  })
  const ignoreWhileTeleporting = (data, cancel) => {
    if (!data.teleport && teleportPending(player)) cancel(false)
  }
  player.on('move_cancel', ignoreWhileTeleporting)
  player.on('look_cancel', ignoreWhileTeleporting)
}

function teleportPending (player) {
  return player.rjTeleport != null && Date.now() - player.rjTeleport.since < TELEPORT_CONFIRM_MS
}

/** Send the player where the server has it, facing the given way, and await confirmation. */
function sendPlayerPosition (player, { yaw, pitch }) {
  const id = nextTeleportId++
  player.rjTeleport = { id, since: Date.now() }
  const p = player.position
  player._client.write('position', { x: p.x, y: p.y, z: p.z, yaw, pitch, flags: 0, teleportId: id })
}

// -- any entity: position and facing ----------------------------------------------------------

function rotation (entity) {
  return entity.rjRotation || { yaw: 0, pitch: 0 }
}

/**
 * RJ setPos/setTile: move, keeping the facing. A player who has left is not moved.
 * flying-squid decides whether to send new chunks and nearby entities from a player's position
 * *before* it takes the move, so after a long jump nothing arrived; that is done here.
 */
async function moveTo (entity, position) {
  if (entity.disconnected) return
  if (!isPlayer(entity)) {
    await entity.sendPosition(position, entity.onGround, true)
    return
  }
  entity.rjTeleport = { id: -1, since: Date.now() }
  await entity.sendPosition(position, entity.onGround, true)
  sendPlayerPosition(entity, rotation(entity))
  entity.updateAndSpawn()
  sendChunksAround(entity)
}

/** Send the chunks around a player who jumped far, once any chunk sending under way is done. */
function sendChunksAround (player, triesLeft = 100) {
  if (player.disconnected || !player.lastPositionChunkUpdated) return
  if (player.sendingChunks) {
    if (triesLeft > 0) setTimeout(() => sendChunksAround(player, triesLeft - 1), 100)
    return
  }
  if (player.position.distanceTo(player.lastPositionChunkUpdated) > 16) {
    player.worldSendRestOfChunks().catch(() => {})
  }
}

/** RJ setRotation/setPitch/setDirection: turn in place. */
function turn (entity, { yaw, pitch }) {
  if (entity.disconnected) return
  entity.rjRotation = { yaw: Math.fround(yaw), pitch: Math.fround(pitch) }
  if (isPlayer(entity)) sendPlayerPosition(entity, entity.rjRotation)
}

/** Bukkit Location.getDirection(), printed as Vector.toString() ("x,y,z"). */
function directionText (entity) {
  const { yaw, pitch } = rotation(entity)
  const rotX = yaw * Math.PI / 180
  const rotY = pitch * Math.PI / 180
  const xz = Math.cos(rotY)
  return [-xz * Math.sin(rotX), -Math.sin(rotY), xz * Math.cos(rotX)].map(J.doubleToString).join(',')
}

/** Bukkit Location.setDirection(vector): yaw and pitch that look along the vector. */
function lookAlong (entity, [x, y, z]) {
  const current = rotation(entity)
  if (x === 0 && z === 0) return { yaw: current.yaw, pitch: y > 0 ? -90 : 90 }
  const theta = Math.atan2(-x, z)
  const yaw = ((theta + 2 * Math.PI) % (2 * Math.PI)) * 180 / Math.PI
  const pitch = Math.atan(-y / Math.sqrt(x * x + z * z)) * 180 / Math.PI
  return { yaw, pitch }
}

/** RJ's player.getAbsPos sends Bukkit's Location.toString(), which clients cannot parse. */
function bukkitLocationText (entity) {
  const p = entity.position
  const { yaw, pitch } = rotation(entity)
  return `Location{world=CraftWorld{name=world},x=${J.doubleToString(p.x)},y=${J.doubleToString(p.y)},` +
    `z=${J.doubleToString(p.z)},pitch=${J.floatToString(pitch)},yaw=${J.floatToString(yaw)}}`
}

// -- types, spawning, lists ------------------------------------------------------------------

function typesText () {
  return ENTITY_TYPES.filter((t) => t.spawnable).map((t) => `${t.typeId},${t.name}|`).join('')
}

function spawn (serv, position, typeId) {
  const type = BY_ID.get(typeId)
  if (!type || !type.spawnable || !LIVING.has(typeId)) {
    throw new Error(`flying-squid cannot spawn entity type ${typeId}`)
  }
  const mob = serv.spawnMob(typeId, serv.overworld, position)
  // flying-squid's entity physics lifts a mob that stands on the ground (a pig spawned on grass
  // read 1.7 blocks higher a tick later), and it has no AI to make mobs wander anyway. Without a
  // size its physics skips the mob: it stands where it was spawned.
  mob.size = null
  return mob
}

/** Entities RJ lists for a type filter: spawnable types only; -1 means every such type. */
function matching (serv, typeId) {
  const found = []
  for (const entity of Object.values(serv.entities)) {
    if (isPlayer(entity) || entity.world !== serv.overworld) continue
    const type = typeOf(serv, entity)
    if (type && type.spawnable && (typeId === -1 || type.typeId === typeId)) found.push([entity, type])
  }
  return found
}

/** RJ's getDistance: -1 when either entity is missing, so a missing centre matches everything. */
function distance (a, b) {
  if (!a || !b) return -1
  return a.position.distanceTo(b.position)
}

function record (entity, type) {
  const p = entity.position
  return `${entity.id},${type.typeId},${type.name},${J.doubleToString(p.x)},${J.doubleToString(p.y)},${J.doubleToString(p.z)}|`
}

function list (serv, typeId, centre = null, maxDistance = Infinity) {
  return matching(serv, typeId).filter(([e]) => distance(centre, e) <= maxDistance)
    .map(([e, t]) => record(e, t)).join('')
}

/** RJ's removal ignores `spawnable`; players are never removed here (Bukkit half-kills them). */
function remove (serv, typeId, centre = null, maxDistance = Infinity) {
  const victims = Object.values(serv.entities).filter((entity) => {
    if (isPlayer(entity) || entity.world !== serv.overworld) return false
    const type = typeOf(serv, entity)
    return (typeId === -1 || (type !== null && type.typeId === typeId)) && distance(centre, entity) <= maxDistance
  })
  for (const entity of victims) serv.destroyEntity(entity)
  return victims.length
}

function removeOne (serv, id) {
  const entity = serv.entities[id]
  if (!entity || isPlayer(entity)) return false
  serv.destroyEntity(entity)
  return true
}

module.exports = {
  byId,
  nameOf,
  isPlayer,
  trackPlayer,
  rotation,
  moveTo,
  turn,
  directionText,
  lookAlong,
  bukkitLocationText,
  typesText,
  spawn,
  list,
  remove,
  removeOne
}
