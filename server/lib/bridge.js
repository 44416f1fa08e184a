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
const crypto = require('crypto')
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
const identity = require('./identity')

const TICK_MS = 50
const MAX_COMMANDS_PER_TICK = 9000
/** A session whose client does not read its replies is not run while this much is unsent. */
const MAX_UNSENT_BYTES = 64 * 1024 * 1024
/** The handshake command when the bridge has a shared secret (server/README.md). */
const AUTH = 'mcbridge.auth'

/** RJ's handleLine: name before the first '(', args up to the last char; null if malformed. */
function parseLine (line) {
  const open = line.indexOf('(')
  if (open < 0 || open + 1 > line.length - 1) return null
  return { name: line.slice(0, open), args: J.splitArgs(line.slice(open + 1, line.length - 1)) }
}

function hash (text) {
  return crypto.createHash('sha256').update(String(text), 'utf8').digest()
}

class Bridge {
  /**
   * @param hitClick 'RIGHT' (RJ default), 'LEFT' or 'BOTH': which sword clicks are block hits
   */
  constructor ({ serv, blocks, signs, log, hitClick = 'RIGHT', secret = '' }) {
    this.serv = serv
    this.secretHash = secret ? hash(secret) : null
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
    this.placements = new Placements(serv, () => this.sessions.filter((s) => s.authenticated))
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
    session.authenticated = this.secretHash === null
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
    identity.cleanChatPackets(player)
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
      for (const session of this.sessions) if (session.authenticated) session.hits.push({ ...hit })
    }
    player._client.on('block_place', ({ location, direction, hand }) => {
      if (this.hitClick !== 'LEFT' && holdsSword(player, hand === 1 ? 1 : 0)) queueHit(location, direction)
    })
    player._client.on('block_dig', ({ status, location, face }) => {
      if (status === 0 && this.hitClick !== 'RIGHT' && holdsSword(player, 0)) queueHit(location, face)
    })
    player.on('chat', ({ message }, cancelled) => {
      if (cancelled) return
      for (const session of this.sessions) if (session.authenticated) session.chats.push({ entityId: player.id, message })
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
      await this.runSession(session)
      if (!session.running && !session.hasInput()) session.pendingRemoval = true
      i++
    }
    this.blocks.flush()
    this.signs.flush((chunkX, chunkZ) => this.blocks.viewersOf(chunkX, chunkZ))
    this.privateBlocks.flush()
    for (const session of sessions) session.flush()
  }

  /** Run up to 9000 lines; a malformed line ends the session's turn in this tick. */
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
    if (session.outputBacklog() > MAX_UNSENT_BYTES) return
    let processed = 0
    while (session.hasInput()) {
      const line = session.nextLine()
      if (!session.authenticated) {
        if (!this.authenticate(session, line)) return
        continue
      }
      const parsed = parseLine(line)
      if (parsed === null) {
        // RJ throws outside its catch-all here: no reply, and the tick ends for this session
        // and every session after it, so a flood of blank lines on one connection stalls all
        // others for as many ticks [decided here: hardening]. Only the culprit's turn ends.
        this.log(`bridge: session ${session.id}: malformed line ${JSON.stringify(line.slice(0, 80))}`)
        return
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

  /** The first line of a session must give the shared secret: `1`, or `Fail` and goodbye. */
  authenticate (session, line) {
    const prefix = AUTH + '('
    const given = line.startsWith(prefix) && line.endsWith(')') ? line.slice(prefix.length, -1) : null
    if (given !== null && crypto.timingSafeEqual(hash(given), this.secretHash)) {
      session.authenticated = true
      session.send('1')
      return true
    }
    this.log(`bridge: session ${session.id} did not give the shared secret; closed`)
    session.send('Fail')
    session.flush()
    session.running = false
    session.pendingRemoval = true
    session.socket.end()
    return false
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

module.exports = { Bridge, parseLine, TICK_MS, MAX_COMMANDS_PER_TICK, AUTH }
