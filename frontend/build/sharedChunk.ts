// Rollup's manualChunks for the lazy screens: the code screens share (components, app hooks, and what they import
// that the entry does not) goes into one `shared` chunk instead of one chunk per module. Split per module, the home
// route fetched nine scripts and four style sheets of under 3 kB each beside the entry; on HTTP/1.1 (six connections
// per host) and a phone network every file costs a round trip, and they queued ahead of the page's query and its
// first image. What the entry loads itself stays in the entry: a module it imports statically is never moved.
//
// The landing page (the route '/', where most first visits start and the one the size budget is measured on) loads
// `shared` too, so shared code it does not import goes into a second chunk, `shared-screens`, which the other
// screens load beside `shared` (list pagination, GraphQL error messages, rich copy, and the copy several features
// read: app/i18n/copy/shared.ts).
import type { GetManualChunk, ManualChunkMeta } from 'rollup'

// Only our shared code is named; a library one feature imports stays with that feature (Rollup still moves into
// `shared` what the shared code itself imports and the entry does not).
const SHARED = /\/src\/(components|app)\//
// The full CASL ability (7 kB gzip with its condition matcher) is for the few components that ask about a subject
// instance (the upgrade overlay): it stays with them, out of the chunk every screen loads. A feature's copy
// (features/<feature>/copy.ts) is the feature's code, not shared code, so it stays with the screens and modals that
// read it; only the copy several features read (app/i18n/copy/shared.ts) is shared code.
const NOT_SHARED = /\/src\/app\/session\/ability\.ts$/

// Library modules the walk below finds from the entry only because the entry imports a library's index, which
// re-exports them: Apollo's useQuery (with its store hook) and useMutation, behind @apollo/client/react, which the
// entry imports for ApolloProvider. Screens and modals use them, the shell and the home page do not (the page reads
// with useSuspenseQuery), so they go with the shared screen code beyond the landing page instead of into the entry.
const SCREEN_LIBRARY = /\/node_modules\/@apollo\/client\/react\/hooks\/(useQuery|useSyncExternalStore|useMutation)\.js$/

/** The modules `roots` import statically (transitively), the roots included. */
function staticallyFrom(meta: ManualChunkMeta, roots: readonly string[]): Set<string> {
  const reached = new Set<string>()
  const pending = [...roots]
  while (pending.length > 0) {
    const id = pending.pop()!
    if (reached.has(id)) continue
    reached.add(id)
    pending.push(...(meta.getModuleInfo(id)?.importedIds ?? []))
  }
  return reached
}

/**
 * `landingScreen`: the landing route's screen module, as an absolute path without its extension
 * (src/features/home/routes/screens); without it, all shared code goes into `shared`.
 */
export function sharedScreenCode(landingScreen?: string): GetManualChunk {
  let entryModules: Set<string> | undefined
  let landingModules: Set<string> | undefined
  return (id, meta) => {
    const ids = () => [...meta.getModuleIds()]
    entryModules ??= staticallyFrom(meta, ids().filter((module) => meta.getModuleInfo(module)?.isEntry))
    if (landingModules === undefined && landingScreen !== undefined) {
      const landing = ids().filter((module) => module.replace(/\.[jt]sx?$/, '') === landingScreen)
      if (landing.length === 0) throw new Error(`sharedScreenCode: no module ${landingScreen} in the build`)
      landingModules = staticallyFrom(meta, landing)
    }
    if (SCREEN_LIBRARY.test(id)) return landingModules === undefined ? 'shared' : 'shared-screens'
    // Rollup pulls the static imports of a manual chunk's modules into it unless they sit in a manual chunk too, so
    // the entry's own modules are named as well (same chunk as before: the entry, named `index`).
    if (entryModules.has(id)) return 'index'
    if (!SHARED.test(id) || NOT_SHARED.test(id)) return null
    return landingModules === undefined || landingModules.has(id) ? 'shared' : 'shared-screens'
  }
}
