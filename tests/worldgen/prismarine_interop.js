// Interoperability check with an independent implementation (prismarine-schematic).
//
//   node prismarine_interop.js IN OUT.schem
//
// Reads IN (a Sponge v2 .schem or an MCEdit .schematic written by worldgen) with
// prismarine-schematic, prints every block as prismarine sees it (JSON on stdout:
// size and one "name[key=value,...]" per cell in y, z, x order), then writes the same
// schematic with prismarine's own Sponge writer to OUT for worldgen to read back.
// Run from anywhere: modules are resolved from server/node_modules.
'use strict'
const path = require('path')
const fs = require('fs')

const modules = path.resolve(__dirname, '..', '..', 'server', 'node_modules')
const { Schematic } = require(path.join(modules, 'prismarine-schematic'))
const { Vec3 } = require(path.join(modules, 'vec3'))

function stateText (block) {
  const props = Object.entries(block.getProperties())
    .map(([key, value]) => `${key}=${String(value)}`)
  return `minecraft:${block.name}` + (props.length ? `[${props.join(',')}]` : '')
}

async function main () {
  const [input, output] = process.argv.slice(2)
  if (!input || !output) throw new Error('usage: node prismarine_interop.js IN OUT.schem')
  const schematic = await Schematic.read(fs.readFileSync(input))
  const start = schematic.start()
  const size = schematic.size
  const cells = []
  for (let y = 0; y < size.y; y++) {
    for (let z = 0; z < size.z; z++) {
      for (let x = 0; x < size.x; x++) {
        cells.push(stateText(schematic.getBlock(new Vec3(x, y, z).plus(start))))
      }
    }
  }
  fs.writeFileSync(output, await schematic.write())
  process.stdout.write(JSON.stringify({
    version: schematic.version,
    size: [size.x, size.y, size.z],
    cells
  }))
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n')
  process.exit(1)
})
