'use strict'
/**
 * The RaspberryJuice endpoint: a TCP server on 127.0.0.1 and RJ's tick model.
 *
 * RaspberryJuice runs every session's queued lines on the server's main thread once per tick
 * (50 ms), at most 9000 lines per session per tick, and its replies leave as soon as the tick has
 * produced them. The same loop here gives clients the same timing: a query costs about one tick,
 * a pipelined batch is answered in one tick, and more than 9000 lines spill into the next tick.
 * Node runs the loop on its single thread, so a read always sees every earlier write.
 */
const net = require('net')
const { performance } = require('perf_hooks')
const { Session } = require('./session')
const { commands, CommandError } = require('./commands')
const J = require('./java')
const { holdsSword } = require('./squid')
const players = require('./players')
const entities = require('./entities')
const { PrivateBlocks } = require('./private')
const { Placements } = require('./placements')

const TICK_MS = 50
const MAX_COMMANDS_PER_TICK = 9000

/** RJ's handleLine: name before the first '(', args up to the last char; null if malformed. */
function parseLine (line) {
  const open = line.indexOf('(')
  if (open < 0 || open + 1 > line.length - 1) return null
  return { name: line.slice(0, open), args: J.splitArgs(line.slice(open + 1, line.length - 1)) }
}

class Bridge {
  /**
   * @param hitClick 'RIGHT' (RJ default), 'LEFT' or 'BOTH': which sword clicks are block hits
   */
  constructor ({ serv, blocks, signs, log, hitClick = 'RIGHT' }) {
    this.serv = serv
    this.blocks = blocks
    this.signs = signs
    this.log = log
    this.hitClick = hitClick
    this.sessions = []
    this.nextSessionId = 1
    this.server = null
    this.timer = null
    this.stopped = false
    this.privateBlocks = new PrivateBlocks(serv, blocks, signs)
    this.placements = new Placements(serv, () => this.sessions)
    serv.on('newPlayer', (player) => this.attachPlayer(player))
  }

  listen (host, port) {
    return new Promise((resolve, reject) => {
      this.server = net.createServer((socket) => this.accept(socket))
      this.server.once('error', reject)
      this.server.listen(port, host, () => {
        this.server.removeListener('error', reject)
        this.server.on('error', (err) => this.log(`bridge socket error: ${err.stack}`))
        this.scheduleTick(performance.now())
        resolve(this.server.address().port)
      })
    })
  }

  accept (socket) {
    socket.setNoDelay(true)
    const session = new Session(socket, this.nextSessionId++)
    this.sessions.push(session)
    this.log(`bridge: session ${session.id} opened from ${socket.remoteAddress}:${socket.remotePort}`)
    socket.on('data', (chunk) => session.receive(chunk))
    socket.on('end', () => session.end())
    socket.on('close', () => { session.running = false })
    socket.on('error', (err) => {
      session.running = false
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') this.log(`bridge: session ${session.id}: ${err.message}`)
    })
  }

  /** Events reach every session open at the moment they happen, as in RJ. */
  attachPlayer (player) {
    entities.trackPlayer(player)
    players.keepChatVerbatim(player)
    players.welcomeOnJoin(this.serv, player)
    // A hit is a click on a block: clicking where there is only air (which a client cannot do,
    // but a packet can) is not one, as in Bukkit, where that is RIGHT_CLICK_AIR.
    const queueHit = (location, face) => {
      // A private block counts where its owner clicks it, even with air in the world there.
      const state = this.privateBlocks.stateFor(player, location.x, location.y, location.z) ??
        this.blocks.stateAtSync(location.x, location.y, location.z)
      if (!state) return
      const hit = { x: location.x, y: location.y, z: location.z, face: face >= 0 && face <= 5 ? face : 7, entityId: player.id }
      for (const session of this.sessions) session.hits.push({ ...hit })
    }
    player._client.on('block_place', ({ location, direction, hand }) => {
      if (this.hitClick !== 'LEFT' && holdsSword(player, hand === 1 ? 1 : 0)) queueHit(location, direction)
    })
    player._client.on('block_dig', ({ status, location, face }) => {
      if (status === 0 && this.hitClick !== 'RIGHT' && holdsSword(player, 0)) queueHit(location, face)
    })
    player.on('chat', ({ message }, cancelled) => {
      if (cancelled) return
      for (const session of this.sessions) session.chats.push({ entityId: player.id, message })
    })
  }

  scheduleTick (start) {
    if (this.stopped) return
    const delay = Math.max(0, start + TICK_MS - performance.now())
    this.timer = setTimeout(() => {
      const tickStart = performance.now()
      this.tick().catch((err) => this.log(`bridge tick failed: ${err.stack}`))
        .finally(() => this.scheduleTick(tickStart))
    }, delay)
  }

  async tick () {
    const sessions = this.sessions
    for (let i = 0; i < sessions.length;) {
      const session = sessions[i]
      if (session.pendingRemoval) {
        session.close()
        sessions.splice(i, 1)
        this.log(`bridge: session ${session.id} closed`)
        continue
      }
      // RJ fixes the origin on a session's first tick: the world spawn (0,5,0 here).
      if (!session.origin) session.origin = this.serv.origin
      if (!(await this.runSession(session))) break
      if (!session.running && !session.hasInput()) session.pendingRemoval = true
      i++
    }
    this.blocks.flush()
    this.signs.flush((chunkX, chunkZ) => this.blocks.viewersOf(chunkX, chunkZ))
    this.privateBlocks.flush()
    for (const session of sessions) session.flush()
  }

  /** Run up to 9000 lines. Returns false when a malformed line abandons the rest of the tick. */
  async runSession (session) {
    const ctx = {
      serv: this.serv,
      blocks: this.blocks,
      signs: this.signs,
      privateBlocks: this.privateBlocks,
      placements: this.placements,
      session,
      log: this.log
    }
    let processed = 0
    while (session.hasInput()) {
      const line = session.nextLine()
      const parsed = parseLine(line)
      if (parsed === null) {
        // RJ throws outside its catch-all here: no reply, and the tick ends for this session
        // and every session after it.
        this.log(`bridge: session ${session.id}: malformed line ${JSON.stringify(line.slice(0, 80))}`)
        return false
      }
      await this.execute(ctx, parsed)
      if (++processed >= MAX_COMMANDS_PER_TICK) {
        if (session.hasInput()) {
          this.log(`bridge: over ${MAX_COMMANDS_PER_TICK} commands were queued - deferring ${session.queuedLines()} to next tick`)
        }
        break
      }
    }
    return true
  }

  async execute (ctx, { name, args }) {
    const handler = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name] : null
    if (!handler) {
      this.log(`bridge: ${JSON.stringify(name.slice(0, 80))} is not supported.`)
      ctx.session.send('Fail')
      return
    }
    try {
      await handler(ctx, args)
    } catch (err) {
      if (!(err instanceof J.JavaFormatError) && !(err instanceof CommandError)) {
        this.log(`bridge: error handling ${name}: ${err.stack}`)
      }
      ctx.session.send('Fail')
    }
  }

  async stop () {
    this.stopped = true
    clearTimeout(this.timer)
    for (const session of this.sessions) session.close()
    this.sessions = []
    if (this.server) await new Promise((resolve) => this.server.close(() => resolve()))
  }
}

module.exports = { Bridge, parseLine, TICK_MS, MAX_COMMANDS_PER_TICK }
