'use strict'
/**
 * The RaspberryJuice 1.12.1 command set (shared/protocol/raspberryjuice.md §2), on flying-squid,
 * plus the `mcbridge.*` extensions.
 *
 * Each handler gets (ctx, args) with args split exactly as RJ splits them, and replies through
 * `ctx.session.send`. A thrown error becomes a `Fail` line in the bridge, as RJ's catch-all
 * does, so handlers only call `send('Fail')` themselves where RJ does so explicitly.
 */
const { Vec3 } = require('vec3')
const J = require('./java')
const { isSignId } = require('./signs')
const entities = require('./entities')
const players = require('./players')
const { escapeField } = require('./identity')

/** Largest world.getBlocks / world.setBlocks box (RJ has none; sakebomb caps at 1,000,000). */
const MAX_BOX_BLOCKS = 4 * 1024 * 1024

class CommandError extends Error {}

function arg (args, i) {
  if (i >= args.length) throw new CommandError(`missing argument ${i}`)
  return args[i]
}

/** RJ parseRelativeBlockLocation: double, truncated toward zero, plus the origin. */
function blockPos (ctx, args, i) {
  const o = ctx.session.origin
  return {
    x: J.toInt(J.parseDouble(arg(args, i))) + o.x,
    y: J.toInt(J.parseDouble(arg(args, i + 1))) + o.y,
    z: J.toInt(J.parseDouble(arg(args, i + 2))) + o.z
  }
}

/** RJ parseRelativeLocation: doubles plus the origin. */
function exactPos (ctx, args, i) {
  const o = ctx.session.origin
  return new Vec3(
    J.parseDouble(arg(args, i)) + o.x,
    J.parseDouble(arg(args, i + 1)) + o.y,
    J.parseDouble(arg(args, i + 2)) + o.z)
}

/** Normalised corners of a box given by two block positions, with its volume. */
function box (a, b) {
  const lo = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), z: Math.min(a.z, b.z) }
  const hi = { x: Math.max(a.x, b.x), y: Math.max(a.y, b.y), z: Math.max(a.z, b.z) }
  const volume = (hi.x - lo.x + 1) * (hi.y - lo.y + 1) * (hi.z - lo.z + 1)
  if (volume > MAX_BOX_BLOCKS) throw new CommandError(`box of ${volume} blocks is over ${MAX_BOX_BLOCKS}`)
  return { lo, hi }
}

function relTile (ctx, position) {
  const o = ctx.session.origin
  return `${Math.floor(position.x) - o.x},${Math.floor(position.y) - o.y},${Math.floor(position.z) - o.z}`
}

function relPos (ctx, position) {
  const o = ctx.session.origin
  return [position.x - o.x, position.y - o.y, position.z - o.z].map(J.doubleToString).join(',')
}

function blockId (ctx, text) {
  const id = J.parseInt32(text)
  if (!ctx.blocks.isKnownBlock(id)) throw new CommandError(`no block with id ${id} in 1.12.2`)
  return id
}

/** RJ's getCurrentPlayer: the first online player, pinned to the session once found. */
function currentPlayer (ctx) {
  const session = ctx.session
  if (!session.attachedPlayer) session.attachedPlayer = ctx.serv.players[0] || null
  if (!session.attachedPlayer) throw new CommandError('no player online')
  return session.attachedPlayer
}

/** RJ's plugin.getEntity: online players first, then the world's other entities. */
function entityById (ctx, text) {
  return entities.byId(ctx.serv, J.parseInt32(text))
}

function playerByName (ctx, name) {
  return ctx.serv.players.find((p) => p.username === name) || null
}

/** chat.post and mcbridge.tell rejoin their arguments with commas (RJ's chat.post loop). */
function joinText (args) {
  if (args.length === 0) throw new CommandError('no text left after the split') // RJ: substring(0, -1)
  return args.join(',')
}

// -- event queues ---------------------------------------------------------------------------

function takeEvents (queue, entityId, format) {
  const taken = []
  for (let i = 0; i < queue.length;) {
    if (entityId === -1 || queue[i].entityId === entityId) {
      taken.push(format(queue[i]))
      queue.splice(i, 1)
    } else {
      i++
    }
  }
  return taken.join('|')
}

function blockHits (ctx, entityId) {
  return takeEvents(ctx.session.hits, entityId,
    (h) => `${relTile(ctx, h)},${h.face},${h.entityId}`)
}

function chatPosts (ctx, entityId) {
  return takeEvents(ctx.session.chats, entityId, (c) => `${c.entityId},${escapeField(c.message)}`)
}

function clearEntityEvents (ctx, entityId) {
  const keep = (e) => e.entityId !== entityId
  ctx.session.hits = ctx.session.hits.filter(keep)
  ctx.session.chats = ctx.session.chats.filter(keep)
}

// -- commands -------------------------------------------------------------------------------

const commands = {
  'world.getBlock': async (ctx, args) => {
    const p = blockPos(ctx, args, 0)
    ctx.session.send(String((await ctx.blocks.stateAt(p.x, p.y, p.z)) >> 4))
  },

  'world.getBlockWithData': async (ctx, args) => {
    const p = blockPos(ctx, args, 0)
    const state = await ctx.blocks.stateAt(p.x, p.y, p.z)
    ctx.session.send(`${state >> 4},${state & 15}`)
  },

  'world.getBlocks': async (ctx, args) => {
    const { lo, hi } = box(blockPos(ctx, args, 0), blockPos(ctx, args, 3))
    const ids = await ctx.blocks.idsInBox(lo.x, lo.y, lo.z, hi.x, hi.y, hi.z)
    ctx.session.send(ids.join(','))
  },

  /** RaspberryJamMod's region read, `id,data|...` in getBlocks order (capability blocks_with_data). */
  'world.getBlocksWithData': async (ctx, args) => {
    const { lo, hi } = box(blockPos(ctx, args, 0), blockPos(ctx, args, 3))
    const states = await ctx.blocks.statesInBox(lo.x, lo.y, lo.z, hi.x, hi.y, hi.z)
    ctx.session.send(states.map((state) => `${state >> 4},${state & 15}`).join('|'))
  },

  'world.setBlock': async (ctx, args) => {
    const p = blockPos(ctx, args, 0)
    const id = blockId(ctx, arg(args, 3))
    const data = args.length > 4 ? J.parseByte(args[4]) : 0
    await ctx.blocks.setBlock(p.x, p.y, p.z, id, data)
  },

  'world.setBlocks': async (ctx, args) => {
    const a = blockPos(ctx, args, 0)
    const b = blockPos(ctx, args, 3)
    const id = blockId(ctx, arg(args, 6))
    const data = args.length > 7 ? J.parseByte(args[7]) : 0
    const { lo, hi } = box(a, b)
    await ctx.blocks.setBox(lo.x, lo.y, lo.z, hi.x, hi.y, hi.z, id, data)
  },

  'world.setSign': async (ctx, args) => {
    const p = blockPos(ctx, args, 0)
    const id = J.parseInt32(arg(args, 3))
    const data = J.parseByte(arg(args, 4))
    if (!ctx.blocks.isKnownBlock(id)) throw new CommandError(`no block with id ${id} in 1.12.2`)
    await ctx.blocks.setBlock(p.x, p.y, p.z, id, data)
    const placed = (await ctx.blocks.stateAt(p.x, p.y, p.z)) >> 4
    if (isSignId(placed)) ctx.signs.setLines(p.x, p.y, p.z, placed, args.slice(5, 9))
  },

  'world.getHeight': async (ctx, args) => {
    const o = ctx.session.origin
    const x = J.toInt(J.parseDouble(arg(args, 0))) + o.x
    const z = J.toInt(J.parseDouble(arg(args, 1))) + o.z
    ctx.session.send(String((await ctx.blocks.heightAt(x, z)) - o.y))
  },

  'world.getPlayerIds': (ctx) => {
    const ids = ctx.serv.players.map((p) => p.id)
    ctx.session.send(ids.length > 0 ? ids.join('|') : 'Fail')
  },

  'world.getPlayerId': (ctx, args) => {
    const player = playerByName(ctx, arg(args, 0))
    ctx.session.send(player ? String(player.id) : 'Fail')
  },

  'chat.post': (ctx, args) => {
    players.broadcast(ctx.serv, joinText(args))
  },

  'events.clear': (ctx) => {
    ctx.session.hits = []
    ctx.session.chats = []
    ctx.placements.clear(ctx.session)
  },
  'events.block.hits': (ctx) => ctx.session.send(blockHits(ctx, -1)),
  'events.chat.posts': (ctx) => ctx.session.send(chatPosts(ctx, -1)),
  'events.projectile.hits': (ctx) => ctx.session.send(''), // flying-squid has no arrows

  'entity.events.clear': (ctx, args) => clearEntityEvents(ctx, J.parseInt32(arg(args, 0))),
  'entity.events.block.hits': (ctx, args) => ctx.session.send(blockHits(ctx, J.parseInt32(arg(args, 0)))),
  'entity.events.chat.posts': (ctx, args) => ctx.session.send(chatPosts(ctx, J.parseInt32(arg(args, 0)))),
  'entity.events.projectile.hits': (ctx, args) => { J.parseInt32(arg(args, 0)); ctx.session.send('') },

  'player.events.clear': (ctx) => clearEntityEvents(ctx, currentPlayer(ctx).id),
  'player.events.block.hits': (ctx) => ctx.session.send(blockHits(ctx, currentPlayer(ctx).id)),
  'player.events.chat.posts': (ctx) => ctx.session.send(chatPosts(ctx, currentPlayer(ctx).id)),
  'player.events.projectile.hits': (ctx) => { currentPlayer(ctx); ctx.session.send('') },

  'player.getTile': (ctx) => ctx.session.send(relTile(ctx, currentPlayer(ctx).position)),
  'player.getPos': (ctx) => ctx.session.send(relPos(ctx, currentPlayer(ctx).position)),
  'player.setTile': async (ctx, args) => {
    const player = currentPlayer(ctx)
    const p = blockPos(ctx, args, 0)
    await entities.moveTo(player, new Vec3(p.x, p.y, p.z))
  },
  'player.setPos': async (ctx, args) => {
    const player = currentPlayer(ctx)
    await entities.moveTo(player, exactPos(ctx, args, 0))
  },
  'player.getAbsPos': (ctx) => ctx.session.send(entities.bukkitLocationText(currentPlayer(ctx))),
  'player.setAbsPos': async (ctx, args) => {
    const player = currentPlayer(ctx)
    const p = new Vec3(J.parseDouble(arg(args, 0)), J.parseDouble(arg(args, 1)), J.parseDouble(arg(args, 2)))
    await entities.moveTo(player, p)
  },
  'player.getDirection': (ctx) => ctx.session.send(entities.directionText(currentPlayer(ctx))),
  'player.setDirection': (ctx, args) => {
    const v = [0, 1, 2].map((i) => J.parseDouble(arg(args, i)))
    const player = currentPlayer(ctx)
    entities.turn(player, entities.lookAlong(player, v))
  },
  'player.getRotation': (ctx) => {
    // RJ turns Bukkit's negative yaw positive by flipping its sign (so east and west collide).
    const yaw = entities.rotation(currentPlayer(ctx)).yaw
    ctx.session.send(J.floatToString(yaw < 0 ? -yaw : yaw))
  },
  'player.setRotation': (ctx, args) => {
    const yaw = J.parseFloat32(arg(args, 0))
    const player = currentPlayer(ctx)
    entities.turn(player, { yaw, pitch: entities.rotation(player).pitch })
  },
  'player.getPitch': (ctx) => ctx.session.send(J.floatToString(entities.rotation(currentPlayer(ctx)).pitch)),
  'player.setPitch': (ctx, args) => {
    const pitch = J.parseFloat32(arg(args, 0))
    const player = currentPlayer(ctx)
    entities.turn(player, { yaw: entities.rotation(player).yaw, pitch })
  },
  'player.getEntities': (ctx, args) => {
    const player = currentPlayer(ctx)
    const distance = J.parseInt32(arg(args, 0))
    const typeId = J.parseInt32(arg(args, 1))
    ctx.session.send(entities.list(ctx.serv, typeId, player, distance))
  },
  'player.removeEntities': (ctx, args) => {
    const player = currentPlayer(ctx)
    const distance = J.parseInt32(arg(args, 0))
    const typeId = J.parseInt32(arg(args, 1))
    ctx.session.send(String(entities.remove(ctx.serv, typeId, player, distance)))
  },

  'entity.getName': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    // RJ sends nothing at all for an unknown id (the client waits until its timeout).
    if (entity) ctx.session.send(escapeField(entities.nameOf(ctx.serv, entity)))
  },
  'entity.getTile': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    ctx.session.send(entity ? relTile(ctx, entity.position) : 'Fail')
  },
  'entity.getPos': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    ctx.session.send(entity ? relPos(ctx, entity.position) : 'Fail')
  },
  'entity.setTile': async (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    if (!entity) return ctx.session.send('Fail')
    const p = blockPos(ctx, args, 1)
    await entities.moveTo(entity, new Vec3(p.x, p.y, p.z))
  },
  'entity.setPos': async (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    if (!entity) return ctx.session.send('Fail')
    await entities.moveTo(entity, exactPos(ctx, args, 1))
  },
  'entity.getDirection': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    ctx.session.send(entity ? entities.directionText(entity) : 'Fail')
  },
  'entity.setDirection': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    if (!entity) return // RJ: silent for an unknown id
    const v = [1, 2, 3].map((i) => J.parseDouble(arg(args, i)))
    entities.turn(entity, entities.lookAlong(entity, v))
  },
  'entity.getRotation': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    ctx.session.send(entity ? J.floatToString(entities.rotation(entity).yaw) : 'Fail')
  },
  'entity.setRotation': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    if (!entity) return
    const yaw = J.parseFloat32(arg(args, 1))
    entities.turn(entity, { yaw, pitch: entities.rotation(entity).pitch })
  },
  'entity.getPitch': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    ctx.session.send(entity ? J.floatToString(entities.rotation(entity).pitch) : 'Fail')
  },
  'entity.setPitch': (ctx, args) => {
    const entity = entityById(ctx, arg(args, 0))
    if (!entity) return
    const pitch = J.parseFloat32(arg(args, 1))
    entities.turn(entity, { yaw: entities.rotation(entity).yaw, pitch })
  },
  'entity.getEntities': (ctx, args) => {
    const centre = entityById(ctx, arg(args, 0))
    const distance = J.parseInt32(arg(args, 1))
    const typeId = J.parseInt32(arg(args, 2))
    ctx.session.send(entities.list(ctx.serv, typeId, centre, distance))
  },
  'entity.removeEntities': (ctx, args) => {
    const centre = entityById(ctx, arg(args, 0))
    const distance = J.parseInt32(arg(args, 1))
    const typeId = J.parseInt32(arg(args, 2))
    ctx.session.send(String(entities.remove(ctx.serv, typeId, centre, distance)))
  },

  'world.spawnEntity': (ctx, args) => {
    const p = blockPos(ctx, args, 0)
    const typeId = J.parseInt32(arg(args, 3))
    ctx.session.send(String(entities.spawn(ctx.serv, new Vec3(p.x, p.y, p.z), typeId).id))
  },
  'world.getEntityTypes': (ctx) => ctx.session.send(entities.typesText()),
  'world.getEntities': (ctx, args) => {
    ctx.session.send(entities.list(ctx.serv, J.parseInt32(arg(args, 0))))
  },
  'world.removeEntity': (ctx, args) => {
    ctx.session.send(entities.removeOne(ctx.serv, J.parseInt32(arg(args, 0))) ? '1' : '0')
  },
  'world.removeEntities': (ctx, args) => {
    ctx.session.send(String(entities.remove(ctx.serv, J.parseInt32(arg(args, 0)))))
  },

  // -- mcbridge extensions: what RaspberryJuice lacks for hidden information ----------------

  // max_box=N is no command: the largest box world.setBlocks accepts (pastes cut bigger ones);
  // nor is escaped: a promise that reply fields with player text are escaped (README.md), so a
  // client may poll everyone's chat at once without a `|` in a message forging a record
  'mcbridge.capabilities': (ctx) =>
    ctx.session.send([...Object.keys(EXTENSIONS), 'escaped', `max_box=${MAX_BOX_BLOCKS}`].join(',')),

  'mcbridge.give': (ctx, args) => {
    const player = playerByName(ctx, arg(args, 0))
    const itemId = J.parseInt32(arg(args, 1))
    const data = J.parseInt32(arg(args, 2))
    const count = J.parseInt32(arg(args, 3))
    if (!player || !players.give(ctx.serv, player, itemId, data, count)) ctx.session.send('Fail')
  },

  'mcbridge.tell': (ctx, args) => {
    const player = playerByName(ctx, arg(args, 0))
    if (!player) return ctx.session.send('Fail')
    players.tell(player, args.slice(1).join(','))
  },

  /** Not advertised by mcbridge.capabilities yet: the four lines of a sign as a JSON array. */
  'mcbridge.getSign': async (ctx, args) => {
    const p = blockPos(ctx, args, 0)
    const id = (await ctx.blocks.stateAt(p.x, p.y, p.z)) >> 4
    if (!isSignId(id)) return ctx.session.send('Fail')
    const sign = ctx.signs.get(p.x, p.y, p.z)
    ctx.session.send(JSON.stringify(sign && sign.id === id ? sign.lines : ['', '', '', '']))
  },

  // -- private blocks (lib/private.js) and placement attribution (lib/placements.js) -------

  'mcbridge.private.setBlock': (ctx, args) => {
    const owner = arg(args, 0)
    const p = blockPos(ctx, args, 1)
    const id = blockId(ctx, arg(args, 4))
    const data = args.length > 5 ? J.parseByte(args[5]) : 0
    refuseIf(ctx.privateBlocks.set(owner, p.x, p.y, p.z, (id << 4) | (data & 15)))
  },
  'mcbridge.private.setSign': (ctx, args) => {
    const owner = arg(args, 0)
    const p = blockPos(ctx, args, 1)
    const id = blockId(ctx, arg(args, 4))
    const data = J.parseByte(arg(args, 5))
    if (!isSignId(id)) throw new CommandError(`block ${id} is no sign`)
    refuseIf(ctx.privateBlocks.set(owner, p.x, p.y, p.z, (id << 4) | (data & 15), args.slice(6, 10)))
  },
  'mcbridge.private.clear': (ctx, args) => {
    const owner = arg(args, 0)
    const area = args.length > 1 ? box(blockPos(ctx, args, 1), blockPos(ctx, args, 4)) : { lo: null, hi: null }
    refuseIf(ctx.privateBlocks.clear(owner, area.lo, area.hi))
  },
  'mcbridge.events.block.placed': (ctx) => ctx.session.send(blockChanges(ctx, 'placed')),
  'mcbridge.events.block.broken': (ctx) => ctx.session.send(blockChanges(ctx, 'broken'))
}

function refuseIf (reason) {
  if (reason) throw new CommandError(reason)
}

/** `entityId,x,y,z,id,data|...`: who placed (or broke) what, oldest first. */
function blockChanges (ctx, kind) {
  return ctx.placements.take(ctx.session, kind)
    .map((e) => `${e.entityId},${relTile(ctx, e)},${e.state >> 4},${e.state & 15}`).join('|')
}

/** Extension name -> command, as listed by mcbridge.capabilities(). */
const EXTENSIONS = {
  give: 'mcbridge.give',
  tell: 'mcbridge.tell',
  private: 'mcbridge.private.setBlock',
  placements: 'mcbridge.events.block.placed',
  blocks_with_data: 'world.getBlocksWithData'
}

module.exports = { commands, CommandError, EXTENSIONS }
