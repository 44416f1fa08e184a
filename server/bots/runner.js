#!/usr/bin/env node
'use strict'
/**
 * Hosts many mineflayer bots in one process, driven by JSON lines on stdin (one process saves
 * ~100 MB per bot compared with a process each; notes/flying-squid.md §5).
 *
 *   node bots/runner.js --host 127.0.0.1 --port <minecraft port> --bridge-port <RJ port>
 *
 * Request:  {"id": 7, "op": "join", "bot": "alice", "timeout": 10, ...}
 * Reply:    {"id": 7, "ok": true, "result": ...}  or  {"id": 7, "ok": false, "error": "..."}
 * First line out: {"event": "ready"}. Every request has a timeout (default 10 s) and gets exactly
 * one reply. Positions are absolute world coordinates [x, y, z]. Ops: join, leave, state,
 * walk_to, hold, right_click, left_click, place, break, chat, raw_chat, try_join, inventory,
 * block_at, received_at, messages, players_seen, shutdown.
 * Joins are spaced JOIN_GAP_MS apart: bots that join at the same instant miss each other.
 * The runner exits when stdin closes.
 */
const net = require('net')
const readline = require('readline')
const { BotPlayer } = require('./player')

const JOIN_GAP_MS = 350
const DEFAULT_TIMEOUT_S = 10

const writeStdout = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest)
console.log = (...args) => console.error(...args)
process.on('uncaughtException', (err) => process.stderr.write(`runner: uncaught ${err.stack}\n`))
process.on('unhandledRejection', (err) => process.stderr.write(`runner: unhandled ${err && err.stack}\n`))

function option (name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback
}

const host = option('host', '127.0.0.1')
const port = Number(option('port', '25565'))
const bridgePort = Number(option('bridge-port', '4711'))
const bots = new Map()
let lastJoin = Promise.resolve()

function reply (message) {
  writeStdout(JSON.stringify(message) + '\n')
}

/**
 * Ask the bridge (the server's RaspberryJuice port) something: send `request`, collect reply
 * lines until `done(line)` says the last awaited one has come.
 */
function askBridge (request, done, ms = 5000) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(bridgePort, host)
    const lines = []
    let buffer = ''
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`the bridge did not answer ${request.trim()}`)) }, ms)
    socket.setEncoding('utf8')
    // A bridge with a shared secret wants it first; its answer ('1') is not part of the reply.
    const secret = process.env.MCBRIDGE_BRIDGE_SECRET
    let skip = secret ? 1 : 0
    socket.on('connect', () => socket.write((secret ? `mcbridge.auth(${secret})\n` : '') + request))
    socket.on('data', (text) => {
      buffer += text
      let newline
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        if (skip > 0) { skip--; continue }
        lines.push(line)
        if (done(line)) {
          clearTimeout(timer)
          socket.end()
          resolve(lines)
          return
        }
      }
    })
    socket.on('error', (err) => { clearTimeout(timer); reject(err) })
  })
}

/**
 * Items come from the server through mcbridge.give. A setter answers nothing on success, so a
 * query fences it: a `Fail` before the query's answer means the give was refused.
 */
async function giveItem (name, id, data) {
  const lines = await askBridge(`mcbridge.give(${name},${id},${data},1)\nmcbridge.capabilities()\n`, (line) => line !== 'Fail')
  if (lines[0] === 'Fail') throw new Error(`the server refused to give item ${id}:${data} to ${name}`)
}

/** Whether the server still lists a player (world.getPlayerId answers `Fail` once it does not). */
async function serverLists (name) {
  const [line] = await askBridge(`world.getPlayerId(${name})\n`, () => true)
  return line !== 'Fail'
}

function botNamed (name) {
  const bot = bots.get(name)
  if (!bot) throw new Error(`no bot named ${JSON.stringify(name)} has joined`)
  return bot
}

/**
 * Run `join` once the previous join has *finished*, then the gap: on a loaded machine a join
 * can take longer than the gap, and two joins in flight at once miss each other.
 */
async function oneJoinAtATime (join) {
  const previous = lastJoin
  let finished
  lastJoin = new Promise((resolve) => { finished = resolve })
  try {
    await previous
    await new Promise((resolve) => setTimeout(resolve, JOIN_GAP_MS))
    return await join()
  } finally {
    finished()
  }
}

function act (req, action) {
  const bot = botNamed(req.bot)
  return bot.act(() => action(bot))
}

const OPS = {
  async join (req, ms) {
    if (typeof req.bot !== 'string' || !/^[A-Za-z0-9_]{1,16}$/.test(req.bot)) {
      throw new Error('a bot name is 1-16 letters, digits or underscores')
    }
    if (bots.has(req.bot) && !bots.get(req.bot).ended) throw new Error(`${req.bot} has already joined`)
    return oneJoinAtATime(() => {
      const player = new BotPlayer({ name: req.bot, host, port, giveItem, serverLists })
      bots.set(req.bot, player)
      return player.join(ms)
    })
  },
  async leave (req, ms) {
    const bot = botNamed(req.bot)
    await bot.act(() => bot.leave(ms))
    bots.delete(req.bot)
  },
  walk_to: (req, ms) => act(req, (bot) => bot.walkTo(req.position, ms)),
  hold: (req, ms) => act(req, (bot) => bot.hold(req.item, req.data ?? 0, true, ms)),
  right_click: (req) => act(req, (bot) => bot.rightClick(req.position, req.face ?? 1)),
  left_click: (req) => act(req, (bot) => bot.leftClick(req.position, req.face ?? 1)),
  place: (req, ms) => act(req, (bot) => bot.place(req.position, req.item, req.data ?? 0, ms)),
  break: (req, ms) => act(req, (bot) => bot.breakBlock(req.position, ms)),
  chat: (req, ms) => act(req, (bot) => bot.chat(String(req.text), ms)),
  // A chat packet exactly as given (newlines, control characters): what a modified client sends.
  raw_chat: (req) => act(req, (bot) => bot.rawChat(String(req.text))),
  // Log in with any name at all (an impostor's client) and report what the server did.
  try_join: (req, ms) => oneJoinAtATime(() => tryJoin(String(req.name), ms)),
  // Questions about what a bot sees do not wait for its actions.
  state: async (req) => botNamed(req.bot).state(),
  players_seen: async (req) => botNamed(req.bot).playersSeen(),
  inventory: async (req) => botNamed(req.bot).inventory(),
  block_at: async (req) => botNamed(req.bot).blockAt(req.position),
  received_at: async (req) => botNamed(req.bot).receivedAt(req.position),
  messages: async (req) => botNamed(req.bot).messages(),
  async shutdown (_req, ms) {
    await Promise.all([...bots.values()].map((bot) => bot.leave(ms)))
    bots.clear()
    setTimeout(() => process.exit(0), 50)
  }
}

/** {joined: true} after a spawn (the bot then quits), or {joined: false, reason}. */
function tryJoin (name, ms) {
  const mineflayer = require('mineflayer')
  const bot = mineflayer.createBot({ host, port, username: name, version: '1.12.2', auth: 'offline', hideErrors: true, logErrors: false, physicsEnabled: false })
  return new Promise((resolve) => {
    const timer = setTimeout(() => { bot.end(); resolve({ joined: false, reason: `no answer within ${ms} ms` }) }, ms - 100)
    const done = (outcome) => { clearTimeout(timer); resolve(outcome) }
    bot.once('spawn', () => { bot.quit(); done({ joined: true, reason: '' }) })
    bot.once('kicked', (reason) => done({ joined: false, reason: String(reason) }))
    bot.once('end', (reason) => done({ joined: false, reason: String(reason) }))
    bot.on('error', () => {})
  })
}

async function handle (req) {
  const ms = Math.max(0.1, Number(req.timeout ?? DEFAULT_TIMEOUT_S)) * 1000
  const op = Object.prototype.hasOwnProperty.call(OPS, req.op) ? OPS[req.op] : null
  if (!op) throw new Error(`unknown op ${JSON.stringify(req.op)}`)
  let timer
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${req.op} timed out after ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([op(req, ms), timeout])
  } finally {
    clearTimeout(timer)
  }
}

const input = readline.createInterface({ input: process.stdin })
input.on('line', (line) => {
  let req
  try {
    req = JSON.parse(line)
  } catch (err) {
    reply({ id: null, ok: false, error: `not JSON: ${err.message}` })
    return
  }
  handle(req).then(
    (result) => reply({ id: req.id, ok: true, result: result ?? null }),
    (err) => reply({ id: req.id, ok: false, error: err.message, timeout: /timed? ?out/i.test(err.message) }))
})
input.on('close', () => OPS.shutdown({}, 2000))
reply({ event: 'ready' })
