'use strict'
/**
 * Chat and items: what the bridge sends to players (chat.post, mcbridge.tell, mcbridge.give).
 *
 * Text goes out as system chat messages with the text verbatim, the way Bukkit's
 * broadcastMessage/sendMessage deliver it: flying-squid's own string chat would read '&' as a
 * colour code and drop characters.
 */

/** Sender shown with a private message; the client formats it as "<sender> whispers to you". */
const PRIVATE_SENDER = 'Server' // TODO(locale): key server.private_sender if it should be translated
/** Vanilla's own private-message format, which clients (and the bot runner) recognise. */
const WHISPER_KEY = 'commands.message.display.incoming'
/** RaspberryJuice greets every joining player in public chat. */
const WELCOME = (name) => `Welcome ${name}` // TODO(locale): key world.welcome, kept verbatim as RJ sends it
/** Chat packet position 1 = system message, what Bukkit's sendMessage/broadcastMessage use. */
const SYSTEM = 1
/** mcbridge.give accepts 1..2304 items (a full inventory of 64-stacks), like the embedded world. */
const MAX_GIVE = 36 * 64

function writeChat (player, component) {
  if (player.disconnected) return
  player._client.write('chat', { message: JSON.stringify(component), position: SYSTEM })
}

/** chat.post: text to every player, verbatim ('§' codes still colour it on the client). */
function broadcast (serv, text) {
  for (const player of serv.players) writeChat(player, { text })
}

/** mcbridge.tell: a private message, shown the way vanilla shows /tell. */
function tell (player, text) {
  writeChat(player, {
    translate: WHISPER_KEY,
    with: [{ text: PRIVATE_SENDER }, { text }],
    color: 'gray',
    italic: true
  })
}

/**
 * Player chat verbatim: flying-squid builds the broadcast line with its '&' colour-code parser,
 * which eats '&' and the character after it. Doubling '&' makes that parser give it back.
 * The RaspberryJuice chat event keeps the original message (data.message).
 */
function keepChatVerbatim (player) {
  player.on('chat_cancel', (data) => { data.text = String(data.text).replace(/&/g, '&&') })
}

/** Once the player is in the world, greet them the way RaspberryJuice does. */
function welcomeOnJoin (serv, player) {
  player.once('connected', () => broadcast(serv, WELCOME(player.username)))
}

/** Window slots in Bukkit's addItem order: hotbar (36-44) first, then the main inventory. */
const GIVE_SLOTS = [...Array(9).keys()].map((i) => 36 + i).concat([...Array(27).keys()].map((i) => 9 + i))

/**
 * mcbridge.give: add count items to the inventory, topping up stacks of the same item first.
 * All or nothing: returns false (and changes nothing) for an unknown item, a bad count or data,
 * or when they do not fit, so the controller learns of it through `Fail`.
 */
function give (serv, player, itemId, data, count) {
  const Item = require('prismarine-item')(serv.registry)
  const def = serv.registry.items[itemId]
  if (!def || itemId === 0 || count < 1 || count > MAX_GIVE || data < 0 || data > 32767) return false
  if (player.disconnected) return false
  const stackSize = def.stackSize || 64
  const slots = player.inventory.slots
  const plan = []
  let left = count
  for (const slot of GIVE_SLOTS) {
    const item = slots[slot]
    if (left > 0 && item && item.type === itemId && item.metadata === data && item.count < stackSize) {
      const n = Math.min(left, stackSize - item.count)
      plan.push([slot, item.count + n])
      left -= n
    }
  }
  for (const slot of GIVE_SLOTS) {
    if (left > 0 && !slots[slot]) {
      const n = Math.min(left, stackSize)
      plan.push([slot, n])
      left -= n
    }
  }
  if (left > 0) return false
  for (const [slot, n] of plan) player.inventory.updateSlot(slot, new Item(itemId, n, data))
  return true
}

module.exports = { broadcast, tell, give, keepChatVerbatim, welcomeOnJoin, WHISPER_KEY }
