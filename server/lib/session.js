'use strict'
/**
 * One RaspberryJuice connection: its input lines, its replies and its event queues.
 *
 * Input is split into lines the way Java's BufferedReader.readLine does it (LF, CR or CRLF end
 * a line; bytes are UTF-8 with invalid sequences replaced by U+FFFD), because RaspberryJuice
 * reads the socket that way: a CR inside a chat text really does start a second command.
 */
const { StringDecoder } = require('string_decoder')

/**
 * Longest line kept. RaspberryJuice has no limit; one runaway client must not eat the heap: 200
 * connections each holding an unterminated line cost at most 200 x 64 Ki characters. The
 * controller's longest request is 16 KiB.
 */
const MAX_LINE_CHARS = 64 * 1024
/** Queued input (characters) beyond which the socket is paused until the ticks catch up. */
const MAX_QUEUED_CHARS = 1024 * 1024
/** Marker queued in place of a line that was too long: it runs as an unknown command (`Fail`). */
const OVERLONG_LINE = '\u0000overlong()'

class Session {
  constructor (socket, id) {
    this.socket = socket
    this.id = id
    this.decoder = new StringDecoder('utf8')
    this.partial = ''
    this.skipLF = false
    this.overlong = false
    this.inQueue = []
    this.inHead = 0
    this.queuedChars = 0
    this.paused = false
    /** False until the shared secret was given, when the bridge has one (server/README.md). */
    this.authenticated = true
    this.outQueue = []
    this.running = true
    this.pendingRemoval = false
    this.origin = null
    this.attachedPlayer = null
    this.hits = []
    this.chats = []
  }

  /** Bytes from the socket: append complete lines to the input queue. */
  receive (chunk) {
    this.addText(this.decoder.write(chunk))
  }

  /** The client closed its side: a final unterminated line still counts, as in readLine. */
  end () {
    this.addText(this.decoder.end())
    if (this.partial.length > 0 || this.overlong) this.pushLine(this.partial)
    this.partial = ''
    this.running = false
  }

  addText (text) {
    let start = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c !== 10 && c !== 13) continue
      if (c === 10 && this.skipLF && i === start && this.partial.length === 0 && !this.overlong) {
        // The LF of a CRLF whose CR ended the previous line.
        this.skipLF = false
        start = i + 1
        continue
      }
      this.appendPartial(text.slice(start, i))
      this.pushLine(this.partial)
      this.partial = ''
      this.skipLF = c === 13
      start = i + 1
    }
    if (start < text.length) {
      this.skipLF = false
      this.appendPartial(text.slice(start))
    }
  }

  appendPartial (text) {
    if (this.overlong) return
    if (this.partial.length + text.length > MAX_LINE_CHARS) {
      this.overlong = true
      this.partial = ''
      return
    }
    this.partial += text
  }

  pushLine (line) {
    const queued = this.overlong ? OVERLONG_LINE : line
    this.inQueue.push(queued)
    this.queuedChars += queued.length
    this.overlong = false
    if (this.queuedChars > MAX_QUEUED_CHARS && !this.paused) {
      this.paused = true
      this.socket.pause()
    }
  }

  hasInput () {
    return this.inHead < this.inQueue.length
  }

  nextLine () {
    const line = this.inQueue[this.inHead++]
    this.queuedChars -= line.length
    if (this.paused && this.queuedChars <= MAX_QUEUED_CHARS / 2) {
      this.paused = false
      if (!this.socket.destroyed) this.socket.resume()
    }
    if (this.inHead > 4096 && this.inHead * 2 > this.inQueue.length) {
      this.inQueue = this.inQueue.slice(this.inHead)
      this.inHead = 0
    }
    return line
  }

  queuedLines () {
    return this.inQueue.length - this.inHead
  }

  send (line) {
    if (this.pendingRemoval) return
    this.outQueue.push(line)
  }

  /** Reply bytes the client has not read yet: a session that does not read is not run. */
  outputBacklog () {
    return this.socket.writableLength || 0
  }

  /** Write this tick's replies in one go (RJ's output thread empties its queue, then flushes). */
  flush () {
    if (this.outQueue.length === 0) return
    const text = this.outQueue.join('\n') + '\n'
    this.outQueue = []
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(text, 'utf8')
  }

  close () {
    this.running = false
    this.pendingRemoval = true
    this.socket.destroy()
  }
}

module.exports = { Session, MAX_LINE_CHARS, MAX_QUEUED_CHARS }
