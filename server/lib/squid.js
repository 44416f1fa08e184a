'use strict'
/**
 * Start flying-squid as a Minecraft 1.12.2 server and patch the bugs that matter to the bridge.
 *
 * Each fix below names the flying-squid 1.12.0 bug it works around (shared/notes/flying-squid.md
 * §3). They are applied from the outside, after `createMCServer` or in `newPlayer`, because
 * flying-squid re-creates some of these functions for every joining player.
 */
const path = require('path')
const { Vec3 } = require('vec3')
const { createMCServer } = require('flying-squid')
const { guardLogins } = require('./identity')

const VERSION = '1.12.2'
/** Superflat: bedrock y=0, dirt 1-3, grass 4, so players stand at y=5. */
const ORIGIN = Object.freeze({ x: 0, y: 5, z: 0 })
/** Where players appear: the centre of the origin block, like a vanilla spawn. */
const SPAWN = new Vec3(ORIGIN.x + 0.5, ORIGIN.y, ORIGIN.z + 0.5)
const SWORDS = new Set(['wooden_sword', 'stone_sword', 'iron_sword', 'golden_sword', 'diamond_sword'])

/** The item a player holds in `hand` (0 main, 1 off hand), or null. */
function heldItem (player, hand = 0) {
  const slot = hand === 1 ? 45 : 36 + player.heldItemSlot
  return player.inventory.slots[slot] || null
}

function holdsSword (player, hand = 0) {
  const item = heldItem(player, hand)
  return item !== null && SWORDS.has(item.name)
}

/**
 * Create the server. Resolves once it listens, with `serv` plus `origin` (RJ origin) attached.
 * `log(text)` receives flying-squid's own log lines (stdout stays free for the ready line).
 */
async function startSquid ({ host, port, worldFolder, gameMode, viewDistance, maxPlayers, motd, log }) {
  const serv = createMCServer({
    'online-mode': false,
    host,
    port,
    version: VERSION,
    motd,
    'max-players': maxPlayers,
    logging: false,
    noConsoleOutput: true,
    // A function here is what flying-squid's errorHandler plugin checks to skip installing its
    // process handlers, which call process.exit() on any uncaught error (bug 6). The launcher
    // installs handlers that log and keep serving instead.
    debug: () => {},
    gameMode,
    difficulty: 1,
    worldFolder: path.resolve(worldFolder),
    generation: { name: 'superflat', options: {} },
    kickTimeout: 30000,
    plugins: {},
    modpe: false,
    'view-distance': viewDistance,
    'player-list-text': { header: { text: motd }, footer: { text: '' } },
    'everybody-op': false,
    'max-entities': 1000
  })
  serv.log = (message) => log(message)
  guardLogins(serv, log)
  serv.origin = ORIGIN
  // Bug 5: the spawn point is random per join. The RJ origin must be fixed.
  serv.getSpawnPoint = async () => SPAWN.clone()
  serv.doDaylightCycle = false
  serv.time = 6000 // noon: a fixed, bright world for players and bots

  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('flying-squid did not become ready within 20 s')), 20000)
    serv.once('ready', () => { clearTimeout(timer); resolve() })
    serv.once('error', (err) => { clearTimeout(timer); reject(err) })
  })
  fixColumnMask(await serv.overworld.getColumn(0, 0))
  keepColumnsLoaded(serv)
  saveWithoutLosingWrites(serv.overworld)
  serv.on('newPlayer', (player) => patchPlayer(serv, player))
  return serv
}

/**
 * Bug 2, the variant with a world folder (read in the source, not seen happen): when the last
 * player leaves a column, flying-squid unloads it; prismarine-world defers that until its next
 * save and then drops the column even if a player or the bridge is using it again by then, so
 * writes made to the dropped copy are lost. Columns therefore stay loaded for the life of the
 * server: arenas are small, and no write can be lost to an unload.
 */
function keepColumnsLoaded (serv) {
  serv._worldUnloadPlayerChunk = (chunkX, chunkZ, player) => {
    const id = chunkX + ',' + chunkZ
    delete player.loadedChunks[id]
    if (serv._worldChunksUsed[id] > 0) serv._worldChunksUsed[id]--
    return false
  }
}

/**
 * prismarine-world's saveNow empties its save queue *after* awaiting the writes, so a column
 * changed while a save is running is not queued again and its change waits for some later
 * write to that column (or is lost at exit). Take the queue first; changes made during the
 * save queue the column again for the next one. (Read in the source.)
 */
function saveWithoutLosingWrites (world) {
  world.saveNow = async function () {
    if (this.savingQueue.size === 0) return
    const batch = [...this.savingQueue.values()]
    this.savingQueue.clear()
    for (const { chunkX, chunkZ } of batch) {
      const column = this.columns[chunkX + ',' + chunkZ]
      if (column) this.finishedSaving = Promise.all([this.finishedSaving, this.storageProvider.save(chunkX, chunkZ, column)])
    }
    await this.finishedSaving
    this.emit('doneSaving')
  }
}

/**
 * prismarine-chunk 1.41 (1.9-1.12 columns): dump() leaves out sections that have become all
 * air, but getMask() still lists them, so a client reads past the end of the chunk data and
 * disconnects ("Attempted to read beyond the bounds of the managed data"). It happens to every
 * column where blocks were set high up and cleared again. Column classes are created per
 * loader call (the generator and the Anvil provider each have their own), so each class is
 * patched when its first column comes by: the mask then lists exactly what dump() writes.
 */
const fixedColumnClasses = new WeakSet()
function fixColumnMask (column) {
  const proto = Object.getPrototypeOf(column)
  if (!proto || fixedColumnClasses.has(proto)) return
  fixedColumnClasses.add(proto)
  proto.getMask = function () {
    let mask = 0
    this.sections.forEach((section, i) => { if (section !== null && !section.isEmpty()) mask |= 1 << i })
    return mask
  }
}

function patchPlayer (serv, player) {
  player.on('sendChunk', ({ chunk }) => fixColumnMask(chunk))

  // Bug 4: `_sendPlayerList` writes the tab list to everybody except the joining player, so
  // clients never learn who was online before them. It is re-defined per join, hence here.
  const sendPlayerList = serv._sendPlayerList
  serv._sendPlayerList = (toPlayer) => {
    sendPlayerList(toPlayer)
    toPlayer._client.write('player_info', {
      action: 'add_player',
      data: serv.players.map((other) => ({
        uuid: other.uuid,
        name: other.username,
        properties: other.profileProperties,
        gamemode: other.gameMode,
        ping: other._client.latency
      }))
    })
  }

  // flying-squid re-creates `serv.tabComplete` on every join, and its `use` answers through the
  // newest player's connection: everybody else's tab-completion answers go to that player. Answer
  // the player who asked instead (the bot runner relies on these answers as a round trip).
  const completion = serv.tabComplete
  completion.use = function (id, otherData = null, existingContent = '') {
    if (id === undefined || !this.types[id] || !completion.requester) return
    const matches = this.types[id](otherData) || this.types.player()
    completion.requester._client.write('tab_complete', {
      matches: matches.filter((match) => match.startsWith(existingContent))
    })
  }
  player._client.prependListener('tab_complete', () => { serv.tabComplete.requester = player })

  // Inventory clicks. flying-squid applies plain clicks (mode 0) with the item the *client*
  // claims is in the slot, in the packet's raw form, which then lands in the server's inventory
  // as a malformed item; a vanilla server uses its own slot contents. And a 1.12 client waits
  // for each click to be confirmed, which flying-squid never does. So: the server's own item
  // goes into the click first, and the click is confirmed after it was applied (refused for
  // the modes flying-squid ignores), as a vanilla server would.
  player._client.prependListener('window_click', (click) => {
    click.item = player.inventory.slots[click.slot] || null
  })
  player._client.on('window_click', ({ windowId, action, mode }) => {
    player._client.write('transaction', { windowId, action, accepted: mode === 0 })
  })

  // Vanilla: a creative player holding a sword cannot break blocks. flying-squid breaks at the
  // first left-click, which would let a sword click on a sign destroy the sign. What counts is
  // the item held when the dig packet arrived: flying-squid decides asynchronously, by which
  // time a later packet may have changed the held slot.
  let digWithSword = false
  player._client.on('block_dig', ({ status }) => {
    if (status === 0 || status === 2) digWithSword = holdsSword(player)
  })
  player.on('dug_cancel', (_data, cancel) => {
    if (player.gameMode === 1 && digWithSword) cancel()
  })
  // Bug 3: a cancelled dig re-sends `block.type` as if it were a state id (wool 35:x shows up as
  // grass). flying-squid sends that without waiting for it, so the real state goes out on the
  // next turn of the event loop, after the wrong one.
  player.on('dug_done', (data, cancelled) => {
    if (!cancelled) return
    setImmediate(() => {
      if (!player.disconnected) player._client.write('block_change', { location: data.position, type: data.block.stateId })
    })
  })
}

module.exports = { startSquid, holdsSword }
