'use strict'
/**
 * Private blocks: blocks and sign texts that one player sees and nobody else ([FAIRPLAY] 2).
 *
 * This is Bukkit's `Player.sendBlockChange` / `sendSignChange`, made to last. The world keeps a
 * neutral block (say the booth wall, or a blank sign); the owner's connection gets the overlay
 * instead, and nobody else's ever does, so no client -- modified or not -- can read another
 * player's hand from its chunk data. The overlay is kept per exact player name (so it survives a
 * rejoin) for the life of the server process, and it survives everything that re-sends blocks to
 * the owner because it is applied where packets leave for that one client:
 *
 * - `map_chunk` (join, teleport, walking back, the bridge re-sending a column): the overlays of
 *   that column follow the chunk at once, before any other packet;
 * - `block_change` / `multi_block_change` (a world write at an overlaid position, a cancelled
 *   dig): the owner gets the overlay state instead of the world's;
 * - `tile_entity_data` at an overlaid position: the owner gets the private text (or nothing,
 *   when the overlay is no sign).
 *
 * Clicks: a sword click on a block the owner sees counts as a block hit even where the world
 * has air (see `stateFor`). Overlays are not saved with the world: a restarted server has none,
 * and the controller draws them again when it reconnects.
 */
const { columnKey, inWorld } = require('./blocks')
const { isSignId, signPacket } = require('./signs')

/** Names that could ever log in (vanilla: 3-16; 1-16 keeps the embedded world's test names). */
const PLAYER_NAME = /^[A-Za-z0-9_]{1,16}$/
/** One player's overlays (a hand display and its signs need a few dozen). */
const MAX_PER_PLAYER = 65536
/** Names holding overlays at once: bounds the memory a runaway controller can pin. */
const MAX_OWNERS = 4096

function posKey (x, y, z) {
  return x + ',' + y + ',' + z
}

class PrivateBlocks {
  /**
   * @param blocks the bridge's BlockAccess (world reads for what a cleared overlay uncovers)
   * @param signs the bridge's SignStore (public text a cleared private sign uncovers)
   */
  constructor (serv, blocks, signs) {
    this.serv = serv
    this.blocks = blocks
    this.signs = signs
    /** owner name -> Map<posKey, {x, y, z, state, lines: [4] | null}> */
    this.overlays = new Map()
    /** owner name -> Map<columnKey, Set<posKey>> */
    this.columns = new Map()
    /** owner name -> Set<posKey> changed this tick (set or cleared), sent by flush() */
    this.pending = new Map()
    serv.on('newPlayer', (player) => this.attach(player))
  }

  /**
   * An overlay block (lines null) or sign (lines: up to 4 strings) for one player.
   * Returns why it was refused (the bridge answers `Fail`), or null.
   */
  set (owner, x, y, z, state, lines = null) {
    if (!PLAYER_NAME.test(owner)) return 'not a player name'
    if (!inWorld(x, y, z)) return null // as world.setBlock: nothing happens outside the world
    let mine = this.overlays.get(owner)
    if (!mine) {
      if (this.overlays.size >= MAX_OWNERS) return `over ${MAX_OWNERS} players hold private blocks`
      mine = new Map()
      this.overlays.set(owner, mine)
      this.columns.set(owner, new Map())
    }
    const key = posKey(x, y, z)
    const old = mine.get(key)
    if (!old && mine.size >= MAX_PER_PLAYER) return `${owner} already has ${MAX_PER_PLAYER} private blocks`
    if (lines !== null) {
      // Lines not given keep the text of the same private sign, as world.setSign does.
      const kept = old && old.lines && old.state >> 4 === state >> 4 ? old.lines : ['', '', '', '']
      lines = [0, 1, 2, 3].map((i) => (lines[i] !== undefined ? String(lines[i]) : kept[i]))
    }
    mine.set(key, { x, y, z, state, lines })
    const col = columnKey(Math.floor(x / 16), Math.floor(z / 16))
    const byColumn = this.columns.get(owner)
    if (!byColumn.has(col)) byColumn.set(col, new Set())
    byColumn.get(col).add(key)
    this.markPending(owner, key)
    return null
  }

  /** Remove the owner's overlays (inside the box lo..hi when given): they see the world again. */
  clear (owner, lo = null, hi = null) {
    if (!PLAYER_NAME.test(owner)) return 'not a player name'
    const mine = this.overlays.get(owner)
    if (!mine) return null
    const byColumn = this.columns.get(owner)
    const inside = (o) => lo === null || (o.x >= lo.x && o.x <= hi.x && o.y >= lo.y && o.y <= hi.y && o.z >= lo.z && o.z <= hi.z)
    for (const [key, o] of mine) {
      if (!inside(o)) continue
      mine.delete(key)
      const col = columnKey(Math.floor(o.x / 16), Math.floor(o.z / 16))
      const keys = byColumn.get(col)
      keys.delete(key)
      if (keys.size === 0) byColumn.delete(col)
      this.markPending(owner, key)
    }
    if (mine.size === 0) {
      this.overlays.delete(owner)
      this.columns.delete(owner)
    }
    return null
  }

  markPending (owner, key) {
    if (!this.pending.has(owner)) this.pending.set(owner, new Set())
    this.pending.get(owner).add(key)
  }

  /** The state `player` sees at x,y,z when it is private, else undefined. */
  stateFor (player, x, y, z) {
    const o = this.overlays.get(player.username)?.get(posKey(x, y, z))
    return o ? o.state : undefined
  }

  /**
   * End of tick, after the world's own changes went out: send this tick's overlay changes to
   * their owners, where the owner has that column (elsewhere the chunk brings them later).
   */
  flush () {
    if (this.pending.size === 0) return
    const pending = this.pending
    this.pending = new Map()
    for (const [owner, keys] of pending) {
      const player = this.serv.players.find((p) => p.username === owner && !p.disconnected)
      if (!player || !player.loadedChunks) continue
      const mine = this.overlays.get(owner)
      for (const key of keys) {
        const [x, y, z] = key.split(',').map(Number)
        if (!player.loadedChunks[columnKey(Math.floor(x / 16), Math.floor(z / 16))]) continue
        const o = mine?.get(key)
        if (o) {
          this.sendOverlay(player._client.write.bind(player._client), o)
          continue
        }
        // Cleared: show the world's block (and its public text) again.
        const state = this.blocks.stateAtSync(x, y, z)
        if (state === undefined) continue
        player._client.write('block_change', { location: { x, y, z }, type: state })
        const sign = this.signs.get(x, y, z)
        if (isSignId(state >> 4) && sign && sign.id === state >> 4) player._client.write('tile_entity_data', signPacket(x, y, z, sign.lines))
      }
    }
  }

  sendOverlay (write, o) {
    write('block_change', { location: { x: o.x, y: o.y, z: o.z }, type: o.state })
    if (o.lines !== null) write('tile_entity_data', signPacket(o.x, o.y, o.z, o.lines))
  }

  /** Every packet for this player passes here: overlaid positions show the overlay. */
  attach (player) {
    const client = player._client
    const write = client.write.bind(client)
    client.write = (name, params) => {
      const mine = this.overlays.get(player.username)
      if (!mine) return write(name, params)
      if (name === 'map_chunk') {
        write(name, params)
        const keys = this.columns.get(player.username).get(columnKey(params.x, params.z))
        if (keys) for (const key of keys) this.sendOverlay(write, mine.get(key))
        return
      }
      if (name === 'block_change') {
        const { x, y, z } = params.location
        const o = mine.get(posKey(x, y, z))
        return write(name, o ? { ...params, type: o.state } : params)
      }
      if (name === 'multi_block_change') {
        const baseX = params.chunkX * 16
        const baseZ = params.chunkZ * 16
        const records = params.records.map((r) => {
          const o = mine.get(posKey(baseX + (r.horizontalPos >> 4), r.y, baseZ + (r.horizontalPos & 15)))
          return o ? { ...r, blockId: o.state } : r
        })
        return write(name, { ...params, records })
      }
      if (name === 'tile_entity_data') {
        const { x, y, z } = params.location
        const o = mine.get(posKey(x, y, z))
        if (!o) return write(name, params)
        if (o.lines === null) return // the owner sees no sign here
        return write(name, signPacket(x, y, z, o.lines))
      }
      return write(name, params)
    }
  }
}

module.exports = { PrivateBlocks, MAX_PER_PLAYER, MAX_OWNERS }
