// Bundle-size benchmark (Performance): builds the app and, in the same run, an empty React + react-router
// + Apollo Client shell (bench/baseline-shell), then measures gzip sizes from the build manifests:
//   - initial JS of the home route: the entry chunk, its static imports, and the home screen's lazy chunk with its
//     own static imports; target ≤ 1.15 × the empty shell's initial JS;
//   - each lazy route chunk with the static imports it adds beyond the entry; target ≤ 50 kB gzip.
// Exits 1 when a target is missed. Usage: npm run bench:size [-- --json]
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const root = fileURLToPath(new URL('..', import.meta.url))
const benchDir = join(root, 'node_modules', '.bench')
const HOME_SCREEN = 'src/features/home/routes/screens.ts'
const MAX_RATIO = 1.15
const MAX_ROUTE_BYTES = 50 * 1024

async function buildWith(configFile, outDir) {
  await build({
    configFile,
    root: undefined,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true, chunkSizeWarningLimit: 10_000 },
  })
  return JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8'))
}

const gzipBytes = (outDir, file) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length

/** The JS files a manifest chunk loads at once: itself and its static imports, recursively. */
function staticClosure(manifest, key, seen = new Set()) {
  const chunk = manifest[key]
  if (!chunk || seen.has(key)) return seen
  seen.add(key)
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, seen)
  return seen
}

const jsFiles = (manifest, keys) => new Set([...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js')))
const sum = (outDir, files) => [...files].reduce((total, file) => total + gzipBytes(outDir, file), 0)

function measure(manifest, outDir) {
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry)
  const entryKeys = staticClosure(manifest, entryKey)
  const entryFiles = jsFiles(manifest, entryKeys)
  const routes = Object.keys(manifest)
    .filter((key) => manifest[key].isDynamicEntry)
    .map((key) => {
      const files = [...jsFiles(manifest, staticClosure(manifest, key))].filter((file) => !entryFiles.has(file))
      return { route: key, files, gzip: sum(outDir, files) }
    })
    .sort((a, b) => b.gzip - a.gzip)
  return { entryFiles, entryGzip: sum(outDir, entryFiles), routes }
}

const kB = (bytes) => (bytes / 1024).toFixed(1)

const app = await buildWith(join(root, 'vite.config.ts'), join(benchDir, 'app'))
const baseline = await buildWith(join(root, 'bench', 'vite.config.ts'), join(benchDir, 'baseline-shell'))
const appSizes = measure(app, join(benchDir, 'app'))
const baselineSizes = measure(baseline, join(benchDir, 'baseline-shell'))
const home = appSizes.routes.find((route) => route.route === HOME_SCREEN)
if (!home) throw new Error(`no lazy chunk for ${HOME_SCREEN} in the manifest`)
const homeInitial = appSizes.entryGzip + home.gzip
const ratio = homeInitial / baselineSizes.entryGzip
const overRoutes = appSizes.routes.filter((route) => route.gzip > MAX_ROUTE_BYTES)
const result = {
  baselineShellGzip: baselineSizes.entryGzip,
  appEntryGzip: appSizes.entryGzip,
  homeChunkGzip: home.gzip,
  homeInitialGzip: homeInitial,
  ratio: Number(ratio.toFixed(3)),
  maxRatio: MAX_RATIO,
  routes: appSizes.routes.map(({ route, gzip }) => ({ route, gzip })),
  maxRouteGzip: MAX_ROUTE_BYTES,
  pass: ratio <= MAX_RATIO && overRoutes.length === 0,
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result, null, 2))
} else {
  console.log(`empty React + react-router + Apollo shell, initial JS: ${kB(baselineSizes.entryGzip)} kB gzip`)
  console.log(`app entry JS:                                         ${kB(appSizes.entryGzip)} kB gzip`)
  console.log(`home route chunk:                                     ${kB(home.gzip)} kB gzip`)
  console.log(`home route initial JS:                                ${kB(homeInitial)} kB gzip`)
  console.log(`ratio: ${ratio.toFixed(3)} (target ≤ ${MAX_RATIO}) ${ratio <= MAX_RATIO ? 'ok' : 'OVER'}`)
  console.log(`lazy route chunks (gzip, beyond the entry; target ≤ ${kB(MAX_ROUTE_BYTES)} kB each):`)
  for (const route of appSizes.routes) {
    console.log(`  ${kB(route.gzip).padStart(6)} kB  ${route.route}${route.gzip > MAX_ROUTE_BYTES ? '  OVER' : ''}`)
  }
}
process.exit(result.pass ? 0 : 1)
