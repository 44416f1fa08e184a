'use strict'
/**
 * Who placed or broke a block ([FAIRPLAY] 3): `mcbridge.events.block.placed()` / `.broken()`.
 *
 * RaspberryJuice reports sword clicks only, so a controller that finds wool on a seat's wall
 * cannot tell who put it there, and blames the seat. Here every block a player places or breaks
 * is queued with the player's entity id, like RJ's block hits: into every bridge session open at
 * that moment, taken (and removed) by the poll.
 *
 * flying-squid places a block through `player.setBlock` at the end of its `block_place`
 * handler and emits no event for it, so that function is wrapped; a finished dig is its `dug`
 * behaviour (cancelled digs, e.g. a creative player's sword click, are not breaks). The bridge's
 * own writes never pass through either, so they are never reported.
 */

/** Events kept per session and kind; the oldest go first beyond it (as the embedded world). */
const MAX_QUEUED = 100000

class Placements {
  /** @param sessions () => the bridge's open sessions (each gets its own copy of an event) */
  constructor (serv, sessions) {
    this.sessions = sessions
    /** session -> {placed: [], broken: []} */
    this.queues = new WeakMap()
    serv.on('newPlayer', (player) => this.attach(player))
  }

  attach (player) {
    const setBlock = player.setBlock
    player.setBlock = (position, stateId, ...rest) => {
      // State 0 is flying-squid removing a plant above a dug block: not a placement.
      if (stateId) this.record('placed', player, position, stateId)
      return setBlock(position, stateId, ...rest)
    }
    player.on('dug_done', ({ position, block }, cancelled) => {
      if (!cancelled && block && block.type !== 0) this.record('broken', player, position, (block.type << 4) | (block.metadata & 15))
    })
  }

  record (kind, player, position, state) {
    const event = { entityId: player.id, x: position.x, y: position.y, z: position.z, state }
    for (const session of this.sessions()) {
      const queue = this.queuesOf(session)[kind]
      queue.push(event)
      if (queue.length > MAX_QUEUED) queue.shift()
    }
  }

  queuesOf (session) {
    let queues = this.queues.get(session)
    if (!queues) {
      queues = { placed: [], broken: [] }
      this.queues.set(session, queues)
    }
    return queues
  }

  /** Remove and return this session's events of one kind, oldest first. */
  take (session, kind) {
    const queues = this.queuesOf(session)
    const taken = queues[kind]
    queues[kind] = []
    return taken
  }

  clear (session) {
    this.queues.delete(session)
  }
}

module.exports = { Placements }
