// The landing page's code, fetched beside the entry instead of after it. Every screen is a lazy chunk that the route's
// loader imports; on a first visit that import starts only once the whole entry (React, the router, Apollo Client:
// ≈ 150 kB brotli) is downloaded and evaluated, and the page's query and its images wait behind it — one more round
// trip before the largest paint. The page is the same index.html for every route, so the build writes into it a small
// inline script holding each route's path pattern with the files of its screen chunk (and that chunk's own imports
// and style sheets); the script picks the current path's and adds `<link rel="modulepreload">` / `<link
// rel="preload" as="style">` for them while the entry downloads. When the loader's import() runs, the module is there.
//
// The route table stays the one source: the patterns and chunks are read at build time from the routes each feature
// declares (src/features/<feature>/routes/index.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { OutputBundle, OutputChunk } from 'rollup'
import type { Plugin } from 'vite'

export interface RouteScreenModule {
  /** The route's path as react-router reads it ('/videos/:slug', '/quickies/:uuid?'). */
  path: string
  /** The screen module the route imports lazily, as written in the declaration ('./screens'). */
  module: string
}

/**
 * The routes of a feature's declaration (routes/index.ts) that have a screen, with the module of that screen. Reads
 * the three shapes the declarations use: `const screens = () => import('./screens')`, `const videoScreen =
 * screen('videos', screens, …)` and, in the list (`export const videosRoutes …`), `{ path: '…', …, screen:
 * screen('videos', screens, …) }` or `screen: videoScreen`. Paths whose screen is written another way go to `unread`.
 */
export function routeScreenModules(source: string, unread: string[] = []): RouteScreenModule[] {
  const modules = new Map<string, string>()
  for (const match of source.matchAll(/const (\w+) = \(\) => import\('([^']+)'\)/g)) modules.set(match[1], match[2])
  const screens = new Map<string, string>()
  for (const match of source.matchAll(/const (\w+) = screen\('[^']*', (\w+),/g)) screens.set(match[1], match[2])

  const table = source.slice(Math.max(0, source.search(/^export const \w+Routes\b/m)))
  const starts = [...table.matchAll(/path: '([^']+)'/g)]
  const routes: RouteScreenModule[] = []
  starts.forEach((start, index) => {
    const end = index + 1 < starts.length ? starts[index + 1].index : table.length
    const entry = table.slice(start.index, end)
    const screen = /screen: (?:screen\('[^']*', (\w+),|(\w+))/.exec(entry)
    if (!screen) return
    const moduleVariable = screen[1] ?? screens.get(screen[2])
    const module = moduleVariable === undefined ? undefined : modules.get(moduleVariable)
    // A screen written another way is left without a preload (and named in the build's warnings), never guessed.
    if (module === undefined) unread.push(start[1])
    else routes.push({ path: start[1], module })
  })
  return routes
}

/** Every feature's routes that have a screen, each screen module as an absolute path without its extension. */
export function featureScreenModules(featuresDir: string, unread: string[] = []): RouteScreenModule[] {
  const routes: RouteScreenModule[] = []
  for (const feature of readdirSync(featuresDir).sort()) {
    const file = join(featuresDir, feature, 'routes', 'index.ts')
    if (!existsSync(file)) continue
    for (const route of routeScreenModules(readFileSync(file, 'utf8'), unread)) {
      routes.push({ path: route.path, module: resolve(file, '..', route.module) })
    }
  }
  return routes
}

/**
 * A react-router path as an anchored regular expression over location.pathname ('*' matches anything); the script
 * tests it case-insensitively, as the router matches static segments.
 */
export function pathPattern(path: string): string {
  if (path === '*') return '^/.*$'
  const segments = path.split('/').filter(Boolean)
  let pattern = ''
  for (const segment of segments) {
    if (segment.startsWith(':')) pattern += segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+'
    else pattern += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`
  }
  return pattern === '' ? '^/$' : `^${pattern}/?$`
}

/** More static segments first, as react-router ranks them. */
const rank = (path: string) => path.split('/').filter((segment) => segment !== '' && !segment.startsWith(':')).length

/** The files a lazy chunk needs beyond the entry: itself, its static imports (transitively) and their style sheets. */
export function chunkFiles(bundle: OutputBundle, chunk: OutputChunk, alreadyLoaded: ReadonlySet<string>) {
  const scripts: string[] = []
  const styles: string[] = []
  const seen = new Set<string>()
  const visit = (fileName: string) => {
    if (seen.has(fileName) || alreadyLoaded.has(fileName)) return
    seen.add(fileName)
    const output = bundle[fileName]
    if (!output || output.type !== 'chunk') return
    scripts.push(output.fileName)
    const css = (output as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss
    for (const file of css ?? []) if (!styles.includes(file)) styles.push(file)
    for (const imported of output.imports) visit(imported)
  }
  visit(chunk.fileName)
  return { scripts, styles }
}

/** The inline script: its data (patterns and file indexes) and the few lines that act on it. */
export function preloadScript(base: string, files: readonly string[], routes: ReadonlyArray<[string, number[]]>): string {
  const data = JSON.stringify({ f: files, r: routes })
  return (
    `(function(d){var p=location.pathname;for(var i=0;i<d.r.length;i++){if(!new RegExp(d.r[i][0],'i').test(p))continue;` +
    `d.r[i][1].forEach(function(n){var f=d.f[n],l=document.createElement('link');` +
    `if(/\\.css$/.test(f)){l.rel='preload';l.setAttribute('as','style')}else{l.rel='modulepreload'}` +
    `l.crossOrigin='';l.href=${JSON.stringify(base)}+f;document.head.appendChild(l)});return}})(${data})`
  )
}

/** The Vite plugin (production builds only). */
export function landingPreload(featuresDir = 'src/features'): Plugin {
  let root = ''
  let base = '/'
  return {
    name: 'paysite-landing-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root
      base = config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle
        if (!bundle) return []
        const unread: string[] = []
        const routes = featureScreenModules(resolve(root, featuresDir), unread)
        if (unread.length > 0) this.warn(`landing preload: no lazy screen module read for ${unread.join(', ')}`)
        const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk')
        const entry = chunks.find((chunk) => chunk.isEntry)
        if (!entry) return []
        const entryFiles = new Set<string>()
        const collect = (fileName: string) => {
          if (entryFiles.has(fileName)) return
          entryFiles.add(fileName)
          const output = bundle[fileName]
          if (output?.type === 'chunk') output.imports.forEach(collect)
        }
        collect(entry.fileName)

        const files: string[] = []
        const indexOf = (file: string) => {
          const found = files.indexOf(file)
          return found >= 0 ? found : files.push(file) - 1
        }
        const table: Array<[string, number[], number]> = []
        // The catch-all (any path holding /joinnow) would preload the join screen for every unknown path: left out.
        for (const route of routes.filter((candidate) => candidate.path !== '*')) {
          const modulePath = route.module
          // The chunk holding the screen module (its facade, or the chunk Rollup merged it into).
          const chunk = chunks.find((candidate) =>
            candidate.moduleIds.some((id) => id.replace(/\.[jt]sx?$/, '') === modulePath),
          )
          if (!chunk) {
            this.warn(`landing preload: no chunk holds ${route.module} (route ${route.path})`)
            continue
          }
          const { scripts, styles } = chunkFiles(bundle, chunk, entryFiles)
          table.push([pathPattern(route.path), [...styles, ...scripts].map(indexOf), rank(route.path)])
        }
        table.sort((a, b) => b[2] - a[2])
        return [
          {
            tag: 'script',
            children: preloadScript(
              base,
              files,
              table.map(([pattern, indexes]) => [pattern, indexes]),
            ),
            injectTo: 'head',
          },
        ]
      },
    },
  }
}
