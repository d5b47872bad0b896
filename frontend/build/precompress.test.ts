// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { precompressDir } from './precompress'

let dir = ''
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('precompressDir', () => {
  it('writes brotli and gzip twins that decompress to the file, for compressible files of some size only', () => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'))
    mkdirSync(join(dir, 'nested'))
    const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))}\n`
    writeFileSync(join(dir, 'index-abc.js'), script)
    writeFileSync(join(dir, 'nested', 'style.css'), 'a { color: red }\n'.repeat(200))
    writeFileSync(join(dir, 'tiny.js'), 'export {}\n')
    writeFileSync(join(dir, 'photo.png'), Buffer.alloc(4096, 7))

    const written = precompressDir(dir)

    expect(written.map((entry) => entry.file).sort()).toEqual([join(dir, 'index-abc.js'), join(dir, 'nested', 'style.css')])
    for (const file of [join(dir, 'index-abc.js'), join(dir, 'nested', 'style.css')]) {
      const raw = readFileSync(file)
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(raw)).toBe(true)
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(raw)).toBe(true)
      expect(readFileSync(`${file}.br`).length).toBeLessThan(raw.length)
    }
    for (const skipped of ['tiny.js', 'photo.png']) {
      expect(existsSync(join(dir, `${skipped}.br`))).toBe(false)
      expect(existsSync(join(dir, `${skipped}.gz`))).toBe(false)
    }
  })

  it('leaves out a twin that would be larger than the file', () => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'))
    // Random bytes do not compress: both twins would be larger.
    const noise = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(Math.random() * 256)))
    writeFileSync(join(dir, 'noise.js'), noise)
    precompressDir(dir)
    expect(existsSync(join(dir, 'noise.js.br'))).toBe(false)
    expect(existsSync(join(dir, 'noise.js.gz'))).toBe(false)
  })
})
