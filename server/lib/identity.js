'use strict'
/**
 * Who may play and what their text may hold: the bridge's answers to impostors and injections.
 *
 * flying-squid accepts any login name ("Aki ", "Aki\u0000", "Aki\u202e", 20 characters) and any
 * chat text (newlines included), where a vanilla server refuses both. Controllers identify
 * players by name and read chat from RaspberryJuice replies, so both are refused or cleaned
 * here, before flying-squid or anyone else sees them, and every reply field that carries player
 * text is escaped (server/README.md, "Reply escaping"), the same way as the embedded world
 * (mcbridge/world/sanitize.py) does it.
 */

/** A Java Edition player name, as vanilla enforces it at login. */
const JAVA_NAME = /^[A-Za-z0-9_]{3,16}$/
/** Vanilla clients send at most 256 characters of chat. */
const MAX_CHAT = 256
/** Controls, format characters (bidi, zero-width), line/paragraph separators, lone surrogates, §. */
const STRIPPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u00a7]/gu
/** What a reply field escapes: the escape character, the record separator, and STRIPPED. */
const ESCAPED = /[\\|\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu
// TODO(locale): key server.invalid_name; the kick reason is server text, as vanilla's own is.
const INVALID_NAME = 'Invalid player name: use 3-16 letters (A-Z), digits or _.'

function isJavaName (name) {
  return typeof name === 'string' && JAVA_NAME.test(name)
}

/** What is kept of a chat line a player sent; '' means the line is dropped. */
function cleanChat (message) {
  return Array.from(String(message).replace(STRIPPED, '')).slice(0, MAX_CHAT).join('')
}

/** `\` -> `\\`; `|` and every STRIPPED character -> `\uXXXX` per UTF-16 unit. Plain text is unchanged. */
function escapeField (text) {
  return String(text).replace(ESCAPED, (c) => {
    if (c === '\\') return '\\\\'
    let out = ''
    for (let i = 0; i < c.length; i++) out += '\\u' + c.charCodeAt(i).toString(16).padStart(4, '0')
    return out
  })
}

/**
 * Refuse logins whose name is not a Java name, with a kick reason, before flying-squid makes a
 * player of them: the `login` and `playerJoin` events of such a client are never delivered.
 */
function guardLogins (serv, log) {
  const server = serv._server
  const emit = server.emit
  server.emit = function (event, client, ...rest) {
    if ((event === 'login' || event === 'playerJoin') && client && !isJavaName(client.username)) {
      if (event === 'login') {
        log(`refused login of ${JSON.stringify(String(client.username).slice(0, 40))}: not a Java player name`)
        client.end(INVALID_NAME)
      }
      return false
    }
    return emit.call(this, event, client, ...rest)
  }
}

/**
 * Clean every chat packet a player sends before any listener (flying-squid's broadcast, the
 * bridge's event queues) sees it; a line with nothing left is dropped.
 */
function cleanChatPackets (player) {
  const client = player._client
  const emit = client.emit
  client.emit = function (event, packet, ...rest) {
    if (event === 'chat' && packet && typeof packet.message === 'string') {
      const message = cleanChat(packet.message)
      if (message === '') return false
      packet = { ...packet, message }
    }
    return emit.call(this, event, packet, ...rest)
  }
}

module.exports = { isJavaName, cleanChat, escapeField, guardLogins, cleanChatPackets, INVALID_NAME, MAX_CHAT }
