'use strict'
/**
 * Sign text, which flying-squid does not keep (notes/flying-squid.md §3, "Signs").
 *
 * flying-squid stores no block entities for 1.12 and sends every chunk with an empty block-entity
 * list, so the bridge keeps the four lines of every sign itself, sends them to clients with
 * `tile_entity_data` (action 9, as a vanilla 1.12 server does), and sends them again whenever a
 * client receives the chunk column again. Text lives as long as the sign block: when the block
 * at a sign's position stops being that kind of sign, the text is gone, as in vanilla, where the
 * tile entity goes with the block. The texts are saved next to the world so a restart with the
 * same world folder keeps them.
 */
const fs = require('fs')
const path = require('path')
const nbt = require('prismarine-nbt')
const { columnKey } = require('./blocks')

const STANDING_SIGN = 63
const WALL_SIGN = 68
const SAVE_DELAY_MS = 1000

function isSignId (id) {
  return id === STANDING_SIGN || id === WALL_SIGN
}

/** tile_entity_data for a sign's four lines, as a vanilla 1.12 server sends it (action 9). */
function signPacket (x, y, z, lines) {
  const text = (line) => nbt.string(JSON.stringify({ text: line }))
  return {
    location: { x, y, z },
    action: 9,
    nbtData: nbt.comp({
      id: nbt.string('minecraft:sign'),
      x: nbt.int(x),
      y: nbt.int(y),
      z: nbt.int(z),
      Text1: text(lines[0]),
      Text2: text(lines[1]),
      Text3: text(lines[2]),
      Text4: text(lines[3])
    })
  }
}

function posKey (x, y, z) {
  return x + ',' + y + ',' + z
}

class SignStore {
  constructor (serv, worldFolder, log) {
    this.serv = serv
    this.world = serv.overworld
    this.log = log
    this.file = path.join(worldFolder, 'mcbridge-signs.json')
    /** posKey -> {x, y, z, id, lines: [4 strings]} */
    this.signs = new Map()
    /** columnKey -> Set<posKey> */
    this.byColumn = new Map()
    /** posKey of texts set since the last flush (sent to clients at the end of the tick) */
    this.pending = new Set()
    this.saveTimer = null
    this.load()
    // Changes made by players (digging, placing) reach the world through prismarine-world,
    // which reports them; the bridge's own writes call blockChanged directly.
    this.world.on('blockUpdate', (oldBlock, newBlock) => {
      const p = newBlock.position
      if (p) this.blockChanged(p.x, p.y, p.z, newBlock.type)
    })
    serv.on('newPlayer', (player) => this.attach(player))
  }

  attach (player) {
    // Re-send the texts of a column each time the client gets that column (it arrives empty).
    player.on('sendChunk_done', ({ x, z }, cancelled) => {
      if (!cancelled) this.sendColumn(player, x, z)
    })
    // Vanilla lets the player who placed a sign write it; flying-squid drops the packet.
    player._client.on('update_sign', ({ location, text1, text2, text3, text4 }) => {
      const { x, y, z } = location
      this.world.getBlockType(location).then((id) => {
        if (!isSignId(id)) return
        this.setLines(x, y, z, id, [text1, text2, text3, text4].map((t) => String(t ?? '')))
      }).catch((err) => this.log(`update_sign failed: ${err.stack}`))
    })
  }

  get (x, y, z) {
    return this.signs.get(posKey(x, y, z))
  }

  /** Set lines[i] for every i given (RJ keeps the old text of lines not given). */
  setLines (x, y, z, id, lines) {
    const key = posKey(x, y, z)
    let sign = this.signs.get(key)
    if (!sign || sign.id !== id) {
      sign = { x, y, z, id, lines: ['', '', '', ''] }
      this.signs.set(key, sign)
      const col = columnKey(Math.floor(x / 16), Math.floor(z / 16))
      if (!this.byColumn.has(col)) this.byColumn.set(col, new Set())
      this.byColumn.get(col).add(key)
    }
    lines.slice(0, 4).forEach((line, i) => { sign.lines[i] = line })
    this.pending.add(key)
    this.scheduleSave()
  }

  /** The block at x,y,z is now `id`: a sign of another kind (or no sign) loses its text. */
  blockChanged (x, y, z, id) {
    const key = posKey(x, y, z)
    const sign = this.signs.get(key)
    if (!sign || sign.id === id) return
    this.signs.delete(key)
    const col = columnKey(Math.floor(x / 16), Math.floor(z / 16))
    this.byColumn.get(col)?.delete(key)
    this.scheduleSave()
  }

  /** End of tick (after block changes went out): send the texts that changed this tick. */
  flush (viewersOf) {
    if (this.pending.size === 0) return
    const keys = this.pending
    this.pending = new Set()
    for (const key of keys) {
      const sign = this.signs.get(key)
      if (!sign) continue
      for (const player of viewersOf(Math.floor(sign.x / 16), Math.floor(sign.z / 16))) {
        this.send(player, sign)
      }
    }
  }

  sendColumn (player, chunkX, chunkZ) {
    const keys = this.byColumn.get(columnKey(chunkX, chunkZ))
    if (!keys) return
    for (const key of keys) this.send(player, this.signs.get(key))
  }

  send (player, sign) {
    player._client.write('tile_entity_data', signPacket(sign.x, sign.y, sign.z, sign.lines))
  }

  load () {
    let entries
    try {
      entries = JSON.parse(fs.readFileSync(this.file, 'utf8'))
    } catch (err) {
      if (err.code !== 'ENOENT') this.log(`ignoring unreadable ${this.file}: ${err.message}`)
      return
    }
    for (const { x, y, z, id, lines } of entries) this.setLines(x, y, z, id, lines)
    this.pending.clear()
  }

  scheduleSave () {
    if (this.saveTimer) return
    this.saveTimer = setTimeout(() => { this.saveTimer = null; this.save() }, SAVE_DELAY_MS)
  }

  save () {
    if (this.saveTimer) { clearTimeout(this.saveTimer); this.saveTimer = null }
    try {
      const tmp = this.file + '.tmp'
      fs.writeFileSync(tmp, JSON.stringify([...this.signs.values()]))
      fs.renameSync(tmp, this.file)
    } catch (err) {
      this.log(`could not save sign texts to ${this.file}: ${err.message}`)
    }
  }
}

module.exports = { SignStore, isSignId, signPacket, STANDING_SIGN, WALL_SIGN }
