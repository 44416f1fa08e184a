'use strict'
/**
 * Java's number parsing and printing, as RaspberryJuice (a Java plugin) does it.
 *
 * The bridge must accept and reject exactly the arguments RaspberryJuice accepts, and print
 * numbers the way Java's `Double.toString` / `Float.toString` do, because clients such as mcpi
 * parse those replies. Every parser here throws `JavaFormatError` where Java would throw
 * `NumberFormatException`; the bridge turns that into a `Fail` reply like RaspberryJuice does.
 */

class JavaFormatError extends Error {}

const INT_MIN = -2147483648
const INT_MAX = 2147483647

const DECIMAL = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)[fFdD]?$/

/** `Double.parseDouble`: trims ASCII control/space, accepts NaN, Infinity, hex and f/d suffixes. */
function parseDouble (text) {
  // String.trim() strips every char <= U+0020 at both ends.
  const s = String(text).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  if (DECIMAL.test(s)) {
    const body = s.replace(/[fFdD]$/, '')
    if (body.endsWith('NaN')) return NaN
    if (body.endsWith('Infinity')) return body.startsWith('-') ? -Infinity : Infinity
    return Number(body)
  }
  const hex = HEX.exec(s)
  if (hex && (hex[2] || hex[3])) {
    const digits = hex[2] + hex[3]
    const mantissa = parseInt(digits, 16)
    const value = mantissa * Math.pow(2, Number(hex[4]) - 4 * hex[3].length)
    return hex[1] === '-' ? -value : value
  }
  throw new JavaFormatError(`For input string: "${text}"`)
}

/** `Float.parseFloat`: the same grammar, rounded to a 32-bit float. */
function parseFloat32 (text) {
  return Math.fround(parseDouble(text))
}

/** `(int) d`: truncation toward zero, NaN -> 0, saturating at the int range. */
function toInt (d) {
  if (Number.isNaN(d)) return 0
  if (d >= INT_MAX) return INT_MAX
  if (d <= INT_MIN) return INT_MIN
  return Math.trunc(d) | 0
}

/** `Integer.parseInt`: optional sign, ASCII digits only, no whitespace, int range. */
function parseInt32 (text) {
  const s = String(text)
  if (!/^[+-]?\d+$/.test(s)) throw new JavaFormatError(`For input string: "${s}"`)
  const value = Number(s)
  if (value < INT_MIN || value > INT_MAX) throw new JavaFormatError(`For input string: "${s}"`)
  return value
}

/** `Byte.parseByte`: `Integer.parseInt` limited to -128..127. */
function parseByte (text) {
  const value = parseInt32(text)
  if (value < -128 || value > 127) throw new JavaFormatError(`Value out of range. Value:"${text}"`)
  return value
}

/** Java's layout of a finite non-zero number given its shortest decimal digits (JS notation). */
function javaLayout (value, shortest) {
  const abs = Math.abs(value)
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = shortest.includes('e') ? Number(shortest).toFixed(20).replace(/0+$/, '') : shortest
    return plain.includes('.') ? plain.replace(/\.$/, '.0') : plain + '.0'
  }
  const [mantissa, exponent] = Number(shortest).toExponential().split('e')
  const m = mantissa.includes('.') ? mantissa : mantissa + '.0'
  return `${m}E${Number(exponent)}`
}

/** `Double.toString(d)`: "1.0", "0.5", "1.0E7", "1.0E-4", "NaN", "-0.0". */
function doubleToString (d) {
  if (Number.isNaN(d)) return 'NaN'
  if (d === Infinity) return 'Infinity'
  if (d === -Infinity) return '-Infinity'
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0'
  return javaLayout(d, String(d))
}

/** `Float.toString(f)`: like doubleToString but with the shortest digits of a 32-bit float. */
function floatToString (value) {
  const f = Math.fround(value)
  if (Number.isNaN(f) || f === 0 || !Number.isFinite(f)) return doubleToString(f)
  for (let precision = 1; precision <= 9; precision++) {
    const candidate = Number(f.toPrecision(precision))
    if (Math.fround(candidate) === f) return javaLayout(candidate, String(candidate))
  }
  return doubleToString(f)
}

/** `String.split(",")`: no match keeps the whole string; trailing empty fields are dropped. */
function splitArgs (text) {
  if (!text.includes(',')) return [text]
  const parts = text.split(',')
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop()
  return parts
}

module.exports = {
  JavaFormatError,
  parseDouble,
  parseFloat32,
  parseInt32,
  parseByte,
  toInt,
  doubleToString,
  floatToString,
  splitArgs
}
