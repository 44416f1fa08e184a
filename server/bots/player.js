'use strict'
/**
 * One mineflayer bot and the actions tests ask of it.
 *
 * A bot is a real Minecraft 1.12.2 client: everything it does goes through the same packets a
 * person's client sends, and everything it reports is what it was sent. Positions here are
 * absolute world coordinates; the Python side converts to and from protocol coordinates.
 */
const mineflayer = require('mineflayer')
const nbt = require('prismarine-nbt')
const { Vec3 } = require('vec3')

/** Vanilla's private-message format, as the bridge's mcbridge.tell sends it. */
const WHISPER_KEY = 'commands.message.display.incoming'
const FACES = [new Vec3(0, -1, 0), new Vec3(0, 1, 0), new Vec3(0, 0, -1), new Vec3(0, 0, 1), new Vec3(-1, 0, 0), new Vec3(1, 0, 0)]
/** Where to look for a block to place against: below first, then the sides, then above. */
const SUPPORT_ORDER = [0, 2, 3, 4, 5, 1]
const HOTBAR_START = 36
/**
 * How long an action waits for the world it needs (a block to break, a block to place
 * against) to show up in the bot's client: a change the controller made a moment ago may
 * still be on its way.
 */
const SEE_CHANGE_MS = 1000
/** Positions whose block packets a bot remembers (see `noteReceived`). */
const MAX_RECEIVED_POSITIONS = 100000
/** Distinct states or texts remembered per position. */
const MAX_RECEIVED_PER_POSITION = 64

function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Poll `check` (sync or async) every tick until it gives a truthy value or `ms` passes. */
async function waitFor (check, ms, what) {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await sleep(50)
  }
}

/** The text of a chat component and its children, without interpreting formatting codes. */
function plainText (component) {
  if (typeof component === 'string') return component
  if (Array.isArray(component)) return component.map(plainText).join('')
  if (!component || typeof component !== 'object') return ''
  let text = typeof component.text === 'string' ? component.text : ''
  if (typeof component.translate === 'string') {
    const args = (component.with || []).map(plainText)
    text += component.translate === 'chat.type.text' ? `<${args[0]}> ${args[1]}` : [component.translate, ...args].join(' ')
  }
  return text + (component.extra || []).map(plainText).join('')
}

class BotPlayer {
  constructor ({ name, host, port, giveItem, serverLists }) {
    this.name = name
    this.host = host
    this.port = port
    this.giveItem = giveItem
    this.serverLists = serverLists
    this.privateMessages = []
    this.publicMessages = []
    this.ended = null
    this.bot = null
    /** "x,y,z" -> {states: Set<stateId>, texts: Map<json, lines>}: every block packet received */
    this.received = new Map()
    this.queue = Promise.resolve()
  }

  /**
   * Run one action after the bot's previous ones: a bot does one thing at a time, so an action
   * that timed out on the caller's side finishes (it is bounded by the same timeout) before the
   * next one starts, and two walks never fight over the controls.
   */
  act (action) {
    const run = this.queue.then(action, action)
    this.queue = run.catch(() => {})
    return run
  }

  /** Connect and resolve once spawned in the world. */
  join (ms) {
    const bot = mineflayer.createBot({
      host: this.host,
      port: this.port,
      username: this.name,
      version: '1.12.2',
      auth: 'offline',
      viewDistance: 'tiny',
      hideErrors: true,
      logErrors: false,
      // Bots stand still unless walking: no gravity, so a player the controller teleports stays
      // where it was put (as in the embedded world), and no stray movement packets.
      physicsEnabled: false
    })
    this.bot = bot
    bot.on('message', (message) => this.hear(message))
    this.recordBlockPackets(bot._client)
    bot.on('end', (reason) => { this.ended = `connection ended: ${reason}` })
    bot.on('kicked', (reason) => { this.ended = `kicked: ${reason}` })
    bot.on('error', (err) => { this.ended = this.ended || `error: ${err.message}` })
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not spawn within ${ms} ms`)), ms)
      bot.once('spawn', () => {
        clearTimeout(timer)
        // A vanilla client sends a movement packet every tick; flying-squid waits for a
        // 'flying' or 'look' one before it finishes the login (the rest of the chunks, chunks
        // on moving). A bot that stands still sends neither by itself.
        bot._client.write('flying', { onGround: true })
        resolve(this.state())
      })
      bot.once('end', (reason) => { clearTimeout(timer); reject(new Error(`${this.name} could not join: ${reason}`)) })
    })
  }

  /**
   * What an attacker's client would log: every block state and sign text the server sent for a
   * position outside chunk data (block_change, multi_block_change, tile_entity_data), so a test
   * can show that a private block never reached this client, not even for a moment.
   */
  recordBlockPackets (client) {
    client.on('block_change', ({ location, type }) => this.noteReceived(location, 'states', type))
    client.on('multi_block_change', ({ chunkX, chunkZ, records }) => {
      for (const r of records) {
        const location = { x: chunkX * 16 + (r.horizontalPos >> 4), y: r.y, z: chunkZ * 16 + (r.horizontalPos & 15) }
        this.noteReceived(location, 'states', r.blockId)
      }
    })
    client.on('tile_entity_data', ({ location, nbtData }) => {
      if (!nbtData) return
      const tag = nbt.simplify(nbtData)
      const line = (text) => { try { return plainText(JSON.parse(text)) } catch { return String(text ?? '') } }
      this.noteReceived(location, 'texts', ['Text1', 'Text2', 'Text3', 'Text4'].map((k) => line(tag[k])))
    })
  }

  noteReceived ({ x, y, z }, kind, value) {
    const key = `${x},${y},${z}`
    let entry = this.received.get(key)
    if (!entry) {
      if (this.received.size >= MAX_RECEIVED_POSITIONS) return
      entry = { states: new Set(), texts: new Map() }
      this.received.set(key, entry)
    }
    if (kind === 'states' && entry.states.size < MAX_RECEIVED_PER_POSITION) entry.states.add(value)
    if (kind === 'texts' && entry.texts.size < MAX_RECEIVED_PER_POSITION) entry.texts.set(JSON.stringify(value), value)
  }

  /** Block states ([id, data]) and sign texts this client was ever sent for one position. */
  receivedAt (position) {
    const entry = this.received.get(position.join(','))
    if (!entry) return { states: [], texts: [] }
    return { states: [...entry.states].map((s) => [s >> 4, s & 15]), texts: [...entry.texts.values()] }
  }

  /** Record a chat line as its plain text, exactly as sent ('§' codes and all). */
  hear (message) {
    const json = message.json
    if (json && json.translate === WHISPER_KEY && Array.isArray(json.with) && json.with.length >= 2) {
      this.privateMessages.push(plainText(json.with[1]))
    } else {
      this.publicMessages.push(json ? plainText(json) : message.toString())
    }
  }

  alive () {
    if (!this.bot || this.ended) throw new Error(`${this.name} is not connected (${this.ended || 'never joined'})`)
    return this.bot
  }

  state () {
    const bot = this.alive()
    const p = bot.entity.position
    const held = bot.heldItem
    return {
      entity_id: bot.entity.id,
      position: [p.x, p.y, p.z],
      held: held ? [held.type, held.metadata] : null,
      game_mode: bot.game.gameMode
    }
  }

  /**
   * Walk in a straight line (jumping over single blocks) and stop on the spot. The last few
   * centimetres are set directly so the bot ends where it was sent, as a person would adjust.
   */
  async walkTo (target, ms) {
    const bot = this.alive()
    const goal = new Vec3(target[0], target[1], target[2])
    const horizontal = () => Math.hypot(goal.x - bot.entity.position.x, goal.z - bot.entity.position.z)
    const deadline = Date.now() + ms
    bot.physicsEnabled = true
    try {
      while (horizontal() > 0.4) {
        if (Date.now() > deadline) throw new Error(`${this.name} did not reach ${goal} within ${ms} ms`)
        this.alive()
        await bot.lookAt(new Vec3(goal.x, bot.entity.position.y + bot.entity.height * 0.9, goal.z), true)
        bot.setControlState('forward', true)
        bot.setControlState('jump', Boolean(bot.entity.isCollidedHorizontally))
        await sleep(50)
      }
      bot.clearControlStates()
      await waitFor(() => bot.entity.onGround, 2000, `${this.name} to land`)
    } finally {
      bot.clearControlStates()
      bot.physicsEnabled = false
    }
    bot.entity.position.x = goal.x
    bot.entity.position.z = goal.z
    bot.entity.velocity.set(0, 0, 0)
    await sleep(100) // the position goes out with the next physics tick
    await this.sync()
    return this.state()
  }

  findItem (id, data) {
    return this.alive().inventory.items().find((item) => item.type === id && item.metadata === data) || null
  }

  /** Put an item in the main hand; with `giveIfMissing`, get one through the bridge first. */
  async hold (id, data, giveIfMissing, ms) {
    const bot = this.alive()
    let item = this.findItem(id, data)
    if (!item && giveIfMissing) {
      await this.giveItem(this.name, id, data)
      item = await waitFor(() => this.findItem(id, data), ms, `item ${id}:${data} in ${this.name}'s inventory`)
    }
    if (!item) throw new Error(`${this.name} has no item ${id}:${data}`)
    if (item.slot >= HOTBAR_START && item.slot < HOTBAR_START + 9) {
      bot.setQuickBarSlot(item.slot - HOTBAR_START)
    } else {
      await bot.equip(item, 'hand')
    }
    await waitFor(() => bot.heldItem && bot.heldItem.type === id && bot.heldItem.metadata === data, ms, `${this.name} to hold ${id}:${data}`)
    await this.sync()
    return this.state()
  }

  /**
   * Use the held item on a block (a RaspberryJuice hit when it is a sword). The bot does not
   * need the block loaded: the packet only carries the position.
   */
  async rightClick (position, face) {
    const bot = this.alive()
    const at = new Vec3(position[0], position[1], position[2])
    const block = bot.blockAt(at) || { position: at }
    await bot.lookAt(at.offset(0.5, 0.5, 0.5), true)
    await bot.activateBlock(block, FACES[face] || FACES[1])
    await this.sync()
  }

  /**
   * Left-click a block without breaking it: start digging and stop at once (a RaspberryJuice hit
   * in LEFT/BOTH hit-click mode when holding a sword; in survival the block survives).
   */
  async leftClick (position, face) {
    const bot = this.alive()
    const at = new Vec3(position[0], position[1], position[2])
    await bot.lookAt(at.offset(0.5, 0.5, 0.5), true)
    bot._client.write('block_dig', { status: 0, location: at, face })
    bot._client.write('block_dig', { status: 1, location: at, face })
    bot.swingArm()
    await this.sync()
  }

  /** Names in this client's player list, and which of them it has seen as entities. */
  playersSeen () {
    const players = this.alive().players
    return {
      listed: Object.keys(players).sort(),
      visible: Object.keys(players).filter((name) => players[name].entity).sort()
    }
  }

  /** Place one held-or-carried item at a free position, against a neighbouring solid block. */
  async place (position, id, data, ms) {
    const bot = this.alive()
    const dest = new Vec3(position[0], position[1], position[2])
    await this.hold(id, data, false, ms)
    const solidNeighbour = () => SUPPORT_ORDER.map((face) => bot.blockAt(dest.plus(FACES[face])))
      .find((block) => block && block.boundingBox === 'block')
    const reference = await waitFor(solidNeighbour, Math.min(ms, SEE_CHANGE_MS), `something solid next to ${dest} to place against`)
      .catch(() => { throw new Error(`nothing solid next to ${dest} to place against`) })
    await bot.placeBlock(reference, dest.minus(reference.position))
    return this.blockAt(position)
  }

  /**
   * Break a block the way the game mode allows: at once in creative (with an empty hand, since
   * creative players cannot break blocks while holding a sword), by digging in survival.
   */
  async breakBlock (position, ms) {
    const bot = this.alive()
    const at = new Vec3(position[0], position[1], position[2])
    const seen = () => { const b = bot.blockAt(at); return b && b.type !== 0 ? b : null }
    const block = await waitFor(seen, Math.min(ms, SEE_CHANGE_MS), `a block at ${at}`)
      .catch(() => { throw new Error(`there is no block at ${at} to break (as ${this.name} sees it)`) })
    const previousSlot = bot.quickBarSlot
    const sword = bot.heldItem && bot.heldItem.name.endsWith('_sword')
    if (bot.game.gameMode === 'creative' && sword) {
      const empty = [...Array(9).keys()].find((i) => !bot.inventory.slots[HOTBAR_START + i])
      if (empty === undefined) throw new Error(`${this.name} holds a sword in creative and has no free hotbar slot`)
      bot.setQuickBarSlot(empty)
    }
    // Digging in the air takes five times longer; with physics off the bot never updates
    // onGround itself, so tell it whether it stands on something.
    const below = bot.blockAt(bot.entity.position.offset(0, -0.5, 0))
    bot.entity.onGround = Boolean(below && below.boundingBox === 'block')
    try {
      await bot.dig(block, true)
      await waitFor(() => { const b = bot.blockAt(at); return b && b.type === 0 }, ms, `${at} to become air`)
      await this.sync() // the server has the dig before the held item changes back
    } finally {
      if (bot.quickBarSlot !== previousSlot) bot.setQuickBarSlot(previousSlot)
    }
    await this.sync()
    const after = bot.blockAt(at)
    if (after && after.type !== 0) throw new Error(`the server kept the block at ${at} (${after.name})`)
  }

  /** Say something in chat; returns once the server has broadcast it (so it is an RJ event). */
  async chat (text, ms) {
    const bot = this.alive()
    if (text.startsWith('/')) {
      bot.chat(text)
      await this.sync()
      return
    }
    const echo = `<${this.name}> ${text}`
    const before = this.publicMessages.length
    bot.chat(text)
    await waitFor(() => this.publicMessages.slice(before).includes(echo), ms, `the server to echo ${this.name}'s chat`)
  }

  /** Send a chat packet verbatim, bypassing every client-side check. */
  async rawChat (text) {
    this.alive()._client.write('chat', { message: text })
    await this.sync()
  }

  inventory () {
    const counts = new Map()
    for (const item of this.alive().inventory.items()) {
      const key = `${item.type}:${item.metadata}`
      counts.set(key, (counts.get(key) || 0) + item.count)
    }
    return [...counts].map(([key, count]) => {
      const [id, data] = key.split(':').map(Number)
      return { id, data, count }
    })
  }

  blockAt (position) {
    const block = this.alive().blockAt(new Vec3(position[0], position[1], position[2]))
    if (!block) return null
    const result = { id: block.type, data: block.metadata, name: block.name }
    if (block.name === 'standing_sign' || block.name === 'wall_sign') {
      const lines = (block.signText || '').split('\n')
      result.sign_text = [0, 1, 2, 3].map((i) => lines[i] || '')
    }
    return result
  }

  messages () {
    return { private: [...this.privateMessages], public: [...this.publicMessages] }
  }

  /**
   * A round trip through the server: packets are handled in order, so once the answer to this
   * tab-complete request arrives, everything sent before it has been handled.
   */
  async sync () {
    await this.alive().tabComplete('x', false, false, 5000)
  }

  /** Quit, and return once the server no longer lists the player. */
  async leave (ms) {
    const bot = this.bot
    if (!bot || this.ended) return
    const ended = new Promise((resolve) => bot.once('end', resolve))
    bot.quit()
    await Promise.race([ended, sleep(ms)])
    this.ended = this.ended || 'left'
    await waitFor(async () => !(await this.serverLists(this.name)), ms, `the server to drop ${this.name}`)
  }
}

module.exports = { BotPlayer }
