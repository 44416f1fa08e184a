'use strict'
/**
 * Block reads and writes for the bridge, batched per tick the way a vanilla server batches them.
 *
 * RaspberryJuice writes through Bukkit on the main thread; the server sends the changes to
 * clients at the end of the tick. Doing the same here (write the column directly, remember what
 * changed, send one packet per chunk at the end of the tick) keeps 9000 setBlocks per tick cheap,
 * where flying-squid's `serv.setBlock` would send one packet per block and player and sort its
 * update queue once per block. Large changes re-send whole chunk columns (never
 * `serv.reloadChunks`, which leaves holes: bug 1 in notes/flying-squid.md).
 */
const { Vec3 } = require('vec3')

const WORLD_HEIGHT = 256
/** Bukkit's world border for block access: beyond it reads are air and writes do nothing. */
const MAX_XZ = 30000000
/** Above this many changed blocks in one column per tick, re-send the column instead. */
const RESEND_COLUMN_OVER = 512

/**
 * Vanilla 1.12 light opacity, which its heightmap (world.getHeight) is built from.
 * minecraft-data's `filterLight` is right for most blocks; these are the exceptions that block
 * light in vanilla although the data says 0 (water, lava, leaves, ice, cobweb, slabs, farmland).
 */
const OPAQUE_OVERRIDES = new Set([8, 9, 10, 11, 18, 161, 30, 79, 43, 44, 125, 126, 181, 182, 204, 205, 60, 208])

function columnKey (chunkX, chunkZ) {
  return chunkX + ',' + chunkZ
}

function inWorld (x, y, z) {
  return y >= 0 && y < WORLD_HEIGHT && x > -MAX_XZ && x < MAX_XZ && z > -MAX_XZ && z < MAX_XZ
}

class BlockAccess {
  /**
   * @param serv flying-squid server
   * @param onChanged (x, y, z, oldStateId, newStateId) called after every bridge write
   */
  constructor (serv, onChanged) {
    this.serv = serv
    this.world = serv.overworld
    this.registry = serv.registry
    this.onChanged = onChanged
    /** columnKey -> {chunkX, chunkZ, positions: Set<index>} of blocks changed this tick */
    this.dirty = new Map()
    /** block ids with an update handler in flying-squid (redstone); only these need physics */
    this.physicsIds = new Set(['redstone_wire', 'redstone_torch', 'unlit_redstone_torch',
      'powered_repeater', 'unpowered_repeater'].map((name) => this.registry.blocksByName[name].id))
    this.opaque = new Uint8Array(4096)
    for (const block of Object.values(this.registry.blocks)) {
      if (block.filterLight > 0 || OPAQUE_OVERRIDES.has(block.id)) this.opaque[block.id] = 1
    }
  }

  isKnownBlock (id) {
    return this.registry.blocks[id] !== undefined
  }

  /** The loaded column, or a promise of it (loading or generating it, as Bukkit does). */
  column (x, z) {
    const chunkX = Math.floor(x / 16)
    const chunkZ = Math.floor(z / 16)
    return this.world.getLoadedColumn(chunkX, chunkZ) || this.world.getColumn(chunkX, chunkZ)
  }

  async loadedColumn (x, z) {
    const col = this.column(x, z)
    return typeof col.then === 'function' ? await col : col
  }

  /** State id (id << 4 | data) at a block position; air outside the world. */
  async stateAt (x, y, z) {
    if (!inWorld(x, y, z)) return 0
    const col = await this.loadedColumn(x, z)
    return col.getBlockStateId(new Vec3(x & 15, y, z & 15))
  }

  /** Same as stateAt but synchronous when the column is already loaded (the common case). */
  stateAtSync (x, y, z) {
    if (!inWorld(x, y, z)) return 0
    const col = this.world.getLoadedColumn(Math.floor(x / 16), Math.floor(z / 16))
    return col ? col.getBlockStateId(new Vec3(x & 15, y, z & 15)) : undefined
  }

  /** Ids for world.getBlocks: y outermost, then x, then z fastest. */
  async idsInBox (x1, y1, z1, x2, y2, z2) {
    return (await this.statesInBox(x1, y1, z1, x2, y2, z2)).map((state) => state >> 4)
  }

  /** State ids (id << 4 | data) in world.getBlocks order: y outermost, then x, then z fastest. */
  async statesInBox (x1, y1, z1, x2, y2, z2) {
    const states = []
    for (let y = y1; y <= y2; y++) {
      for (let x = x1; x <= x2; x++) {
        for (let z = z1; z <= z2; z++) {
          let state = this.stateAtSync(x, y, z)
          if (state === undefined) state = await this.stateAt(x, y, z)
          states.push(state)
        }
      }
    }
    return states
  }

  /**
   * RJ's updateBlock: write id:data unless the block already is exactly that.
   * Returns true when something changed.
   */
  async setBlock (x, y, z, id, data, physics = true) {
    if (!inWorld(x, y, z)) return false
    const col = await this.loadedColumn(x, z)
    const inChunk = new Vec3(x & 15, y, z & 15)
    const oldState = col.getBlockStateId(inChunk)
    const newState = (id << 4) | (data & 15)
    if (oldState === newState) return false
    col.setBlockStateId(inChunk, newState)
    this.world.saveAt({ x, z })
    this.markDirty(x, y, z)
    if (physics) this.schedulePhysics(x, y, z, newState)
    this.onChanged(x, y, z, oldState, newState)
    return true
  }

  /**
   * world.setBlocks: corners normalised, x outer, z middle, y inner, as RJ writes them.
   * Physics only reaches two blocks from a change, so blocks deeper inside the box than that
   * cannot have a redstone neighbour left after the write and are written without it.
   */
  async setBox (x1, y1, z1, x2, y2, z2, id, data) {
    const yLow = Math.max(y1, 0)
    const yHigh = Math.min(y2, WORLD_HEIGHT - 1)
    const allPhysics = this.physicsIds.has(id)
    for (let x = x1; x <= x2; x++) {
      const xEdge = x - x1 < 2 || x2 - x < 2
      for (let z = z1; z <= z2; z++) {
        const xzEdge = xEdge || z - z1 < 2 || z2 - z < 2
        for (let y = yLow; y <= yHigh; y++) {
          const physics = allPhysics || xzEdge || y - yLow < 2 || yHigh - y < 2
          await this.setBlock(x, y, z, id, data, physics)
        }
      }
    }
  }

  /** Vanilla 1.12 getHighestBlockYAt: one above the highest light-blocking block (0 if none). */
  async heightAt (x, z) {
    if (!inWorld(x, 0, z)) return 0
    const col = await this.loadedColumn(x, z)
    const p = new Vec3(x & 15, 0, z & 15)
    for (let y = WORLD_HEIGHT - 1; y >= 0; y--) {
      p.y = y
      if (this.opaque[col.getBlockType(p)]) return y + 1
    }
    return 0
  }

  markDirty (x, y, z) {
    const chunkX = Math.floor(x / 16)
    const chunkZ = Math.floor(z / 16)
    const key = columnKey(chunkX, chunkZ)
    let entry = this.dirty.get(key)
    if (!entry) {
      entry = { chunkX, chunkZ, positions: new Set() }
      this.dirty.set(key, entry)
    }
    entry.positions.add(((x & 15) << 12) | ((z & 15) << 8) | y)
  }

  /**
   * flying-squid's physics, limited to where it can do anything: its update handlers exist only
   * for redstone parts, so an update is queued only at or next to one of those. This is what
   * `serv.setBlock` would do (update the block; a removal notifies the neighbours and theirs),
   * without queueing tens of thousands of no-op updates for a large write.
   */
  schedulePhysics (x, y, z, newState) {
    const serv = this.serv
    const tick = serv.tickCount
    const hasHandler = (px, py, pz) => {
      const state = this.stateAtSync(px, py, pz)
      return state !== undefined && this.physicsIds.has(state >> 4)
    }
    const neighbours = (px, py, pz) => [[px - 1, py, pz], [px + 1, py, pz], [px, py - 1, pz],
      [px, py + 1, pz], [px, py, pz - 1], [px, py, pz + 1]]
    const update = (p, forceNotify) => serv.updateBlock(this.world, new Vec3(p[0], p[1], p[2]), tick, tick, forceNotify)
    if (newState !== 0) {
      if (hasHandler(x, y, z)) update([x, y, z], true)
      else for (const n of neighbours(x, y, z)) if (hasHandler(...n)) update(n, false)
      return
    }
    for (const n of neighbours(x, y, z)) {
      if (hasHandler(...n)) update(n, true)
      else for (const m of neighbours(...n)) if (hasHandler(...m)) update(m, false)
    }
  }

  /** Players in the overworld that have this column loaded. */
  viewersOf (chunkX, chunkZ) {
    const key = columnKey(chunkX, chunkZ)
    return this.serv.players.filter((p) => p.world === this.world && p.loadedChunks && p.loadedChunks[key])
  }

  /** End of tick: send this tick's changes, one packet per column per player. */
  flush () {
    if (this.dirty.size === 0) return
    const dirty = this.dirty
    this.dirty = new Map()
    for (const { chunkX, chunkZ, positions } of dirty.values()) {
      const viewers = this.viewersOf(chunkX, chunkZ)
      if (viewers.length === 0) continue
      const col = this.world.getLoadedColumn(chunkX, chunkZ)
      if (!col) continue
      if (positions.size > RESEND_COLUMN_OVER) {
        for (const player of viewers) player.sendChunk(chunkX, chunkZ, col)
        continue
      }
      const records = []
      const p = new Vec3(0, 0, 0)
      for (const index of positions) {
        p.set((index >> 12) & 15, index & 255, (index >> 8) & 15)
        records.push({ horizontalPos: (p.x << 4) | p.z, y: p.y, blockId: col.getBlockStateId(p) })
      }
      for (const player of viewers) {
        if (records.length === 1) {
          const r = records[0]
          const location = { x: chunkX * 16 + (r.horizontalPos >> 4), y: r.y, z: chunkZ * 16 + (r.horizontalPos & 15) }
          player._client.write('block_change', { location, type: r.blockId })
        } else {
          player._client.write('multi_block_change', { chunkX, chunkZ, records })
        }
      }
    }
  }
}

module.exports = { BlockAccess, inWorld, columnKey, WORLD_HEIGHT }
