#!/usr/bin/env node
'use strict'
/**
 * Start a Minecraft 1.12.2 server (flying-squid) with a RaspberryJuice bridge on 127.0.0.1.
 *
 *   node launcher.js [--port 25565] [--bridge-port 4711] [--world DIR] [--gamemode survival]
 *                    [--view-distance 8] [--hitclick RIGHT] [--max-players 20] [--host 127.0.0.1]
 *                    [--parent-pid PID]
 *
 * Every flag has an environment twin (MCBRIDGE_PORT, MCBRIDGE_BRIDGE_PORT, MCBRIDGE_WORLD,
 * MCBRIDGE_GAMEMODE, MCBRIDGE_VIEW_DISTANCE, MCBRIDGE_HITCLICK, MCBRIDGE_MAX_PLAYERS,
 * MCBRIDGE_HOST); a flag wins over the environment. Port 0 picks a free port. Without --world
 * the world lives in a temporary folder that is deleted at exit. --host only moves the
 * Minecraft port (e.g. 0.0.0.0 for a LAN game); the bridge always listens on 127.0.0.1.
 * MCBRIDGE_BRIDGE_SECRET (environment only, so it shows in no process list), when set, is a
 * shared secret every bridge connection must give first (server/README.md).
 *
 * stdout carries exactly one JSON line, {"event":"ready",...} with both ports, once both listen
 * (or {"event":"error","message":...} if start-up fails); all logging goes to stderr.
 * SIGTERM or SIGINT stops the server cleanly: players are kicked, the world is saved.
 */
const fs = require('fs')
const os = require('os')
const path = require('path')
const { performance } = require('perf_hooks')

const startedAt = performance.now()
// stdout is reserved for the ready line. flying-squid prints with console.log and opens a
// readline prompt ("> ") on stdout, so everything else written there goes to stderr instead.
const writeStdout = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest)
console.log = (...args) => console.error(...args)

const GAMEMODES = { survival: 0, creative: 1, adventure: 2, 0: 0, 1: 1, 2: 2 }
const OPTIONS = {
  port: { env: 'MCBRIDGE_PORT', fallback: '25565', parse: Number },
  'bridge-port': { env: 'MCBRIDGE_BRIDGE_PORT', fallback: '4711', parse: Number },
  world: { env: 'MCBRIDGE_WORLD', fallback: '', parse: String },
  gamemode: { env: 'MCBRIDGE_GAMEMODE', fallback: 'survival', parse: (v) => GAMEMODES[v.toLowerCase()] },
  'view-distance': { env: 'MCBRIDGE_VIEW_DISTANCE', fallback: '8', parse: Number },
  hitclick: { env: 'MCBRIDGE_HITCLICK', fallback: 'RIGHT', parse: (v) => ['RIGHT', 'LEFT', 'BOTH'].find((h) => h === v.toUpperCase()) },
  'max-players': { env: 'MCBRIDGE_MAX_PLAYERS', fallback: '20', parse: Number },
  host: { env: 'MCBRIDGE_HOST', fallback: '127.0.0.1', parse: String },
  'parent-pid': { env: '', fallback: '0', parse: Number }
}

function emit (event) {
  writeStdout(JSON.stringify(event) + '\n')
}

function fail (message) {
  emit({ event: 'error', message })
  process.stderr.write(`launcher: ${message}\n`)
  process.exit(2)
}

function parseOptions (argv) {
  const raw = {}
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i])
    if (!match || !(match[1] in OPTIONS)) fail(`unknown argument ${argv[i]}; see the comment at the top of launcher.js`)
    raw[match[1]] = match[2] !== undefined ? match[2] : argv[++i]
    if (raw[match[1]] === undefined) fail(`--${match[1]} needs a value`)
  }
  const options = {}
  for (const [name, { env, fallback, parse }] of Object.entries(OPTIONS)) {
    const text = raw[name] ?? (env && process.env[env]) ?? fallback
    const value = parse(text)
    if (value === undefined || Number.isNaN(value)) fail(`invalid value ${JSON.stringify(text)} for --${name}`)
    options[name] = value
  }
  for (const name of ['port', 'bridge-port']) {
    if (!Number.isInteger(options[name]) || options[name] < 0 || options[name] > 65535) fail(`--${name} must be a port number (0 picks a free one)`)
  }
  return options
}

function log (message) {
  process.stderr.write(`${new Date().toISOString()} ${message}\n`)
}

async function main () {
  const options = parseOptions(process.argv.slice(2))
  const temporaryWorld = options.world === ''
  const worldFolder = temporaryWorld
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'mcbridge-world-'))
    : path.resolve(options.world)
  fs.mkdirSync(worldFolder, { recursive: true })
  // However the process ends (a failed start included), a temporary world goes with it.
  if (temporaryWorld) process.on('exit', () => fs.rmSync(worldFolder, { recursive: true, force: true }))

  // One bad command or packet must never take the server down (flying-squid's own handlers
  // would quit; see squid.js).
  process.on('uncaughtException', (err) => log(`uncaught exception (server keeps running): ${err.stack}`))
  process.on('unhandledRejection', (err) => log(`unhandled rejection (server keeps running): ${err && err.stack}`))

  const { startSquid } = require('./lib/squid')
  const { BlockAccess } = require('./lib/blocks')
  const { SignStore } = require('./lib/signs')
  const { Bridge } = require('./lib/bridge')

  let serv
  try {
    serv = await startSquid({
      host: options.host,
      port: options.port,
      worldFolder,
      gameMode: options.gamemode,
      viewDistance: options['view-distance'],
      maxPlayers: options['max-players'],
      motd: 'mcbridge',
      log
    })
  } catch (err) {
    fail(`Minecraft server did not start on ${options.host}:${options.port}: ${err.message}`)
  }
  const signs = new SignStore(serv, worldFolder, log)
  const blocks = new BlockAccess(serv, (x, y, z, _old, state) => signs.blockChanged(x, y, z, state >> 4))
  const secret = process.env.MCBRIDGE_BRIDGE_SECRET || ''
  const bridge = new Bridge({ serv, blocks, signs, log, hitClick: options.hitclick, secret })
  let bridgePort
  try {
    bridgePort = await bridge.listen('127.0.0.1', options['bridge-port'])
  } catch (err) {
    fail(`RaspberryJuice bridge did not start on 127.0.0.1:${options['bridge-port']}: ${err.message}`)
  }

  // If the process exits another way than stop(), the sign texts of a kept world are saved.
  if (!temporaryWorld) process.on('exit', () => signs.save())
  let stopping = false
  const stop = async (why) => {
    if (stopping) return
    stopping = true
    log(`stopping (${why})`)
    const hardStop = setTimeout(() => process.exit(1), 10000)
    try {
      await bridge.stop()
      if (!temporaryWorld) signs.save()
      await Promise.race([serv.quit('Server closed'), new Promise((resolve) => setTimeout(resolve, 3000))])
      await Promise.race([serv.overworld.waitSaving(), new Promise((resolve) => setTimeout(resolve, 5000))])
    } catch (err) {
      log(`error while stopping: ${err.stack}`)
    }
    clearTimeout(hardStop)
    process.exit(0)
  }
  // flying-squid registers exit-hook handlers (once its dynamic import of exit-hook resolves)
  // that call process.exit() at once, before the world is saved; replace them with the clean
  // stop above. Awaiting the same import first makes sure they are there to be removed.
  await import('exit-hook')
  await new Promise((resolve) => setImmediate(resolve))
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.removeAllListeners(signal)
    process.on(signal, () => stop(signal))
  }
  const parentPid = options['parent-pid']
  if (parentPid > 0) {
    setInterval(() => {
      try { process.kill(parentPid, 0) } catch { stop(`parent ${parentPid} is gone`) }
    }, 1000).unref()
  }

  emit({
    event: 'ready',
    host: '127.0.0.1',
    minecraft_host: options.host,
    minecraft_port: serv.listeningPort,
    bridge_port: bridgePort,
    version: serv.registry.version.minecraftVersion,
    origin: [serv.origin.x, serv.origin.y, serv.origin.z],
    world: worldFolder,
    temporary_world: temporaryWorld,
    gamemode: options.gamemode,
    bridge_secret: secret !== '',
    pid: process.pid,
    startup_ms: Math.round(performance.now() - startedAt)
  })
}

main().catch((err) => fail(err.stack))
