// Brotli and gzip twins of every compressible asset, written beside it at build time: the gateway serves
// <dist>/assets with tower-http's ServeDir precompressed_br().precompressed_gzip(), which sends `x.js.br` or `x.js.gz`
// to a browser that accepts it and otherwise the file itself. Without the twins every script went out uncompressed
// (the 607 kB entry instead of ≈ 150 kB brotli), which alone cost seconds of LCP on Lighthouse's slow 4G.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|wasm)$/i
/** Below this a compressed twin saves less than a packet. */
const MIN_BYTES = 1024

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else yield path
  }
}

/** Writes `<file>.br` and `<file>.gz` for each compressible file under `dir` of at least MIN_BYTES that shrinks. */
export function precompressDir(dir: string): { file: string; br: number; gz: number }[] {
  const written: { file: string; br: number; gz: number }[] = []
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue
    const raw = readFileSync(file)
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    })
    const gz = gzipSync(raw, { level: 9 })
    // ServeDir picks a twin whenever it exists, so a twin larger than the file would be a loss.
    if (br.length < raw.length) writeFileSync(`${file}.br`, br)
    if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz)
    written.push({ file, br: br.length, gz: gz.length })
  }
  return written
}

/** The Vite plugin: precompresses `<outDir>/assets` once the bundle is written (production builds only). */
export function precompress(): Plugin {
  let assetsDir = ''
  return {
    name: 'paysite-precompress',
    apply: 'build',
    configResolved(config) {
      assetsDir = resolve(config.root, config.build.outDir, config.build.assetsDir)
    },
    closeBundle() {
      try {
        statSync(assetsDir)
      } catch {
        return
      }
      precompressDir(assetsDir)
    },
  }
}
