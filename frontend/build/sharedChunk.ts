// Rollup's manualChunks for the lazy screens: the code screens share (components, app hooks, and what they import
// that the entry does not) goes into one `shared` chunk instead of one chunk per module. Split per module, the home
// route fetched nine scripts and four style sheets of under 3 kB each beside the entry; on HTTP/1.1 (six connections
// per host) and a phone network every file costs a round trip, and they queued ahead of the page's query and its
// first image. What the entry loads itself stays in the entry: a module it imports statically is never moved.
import type { GetManualChunk, ManualChunkMeta } from 'rollup'

// Only our shared code is named; a library one feature imports stays with that feature (Rollup still moves into
// `shared` what the shared code itself imports and the entry does not).
const SHARED = /\/src\/(components|app)\//
// The full CASL ability (7 kB gzip with its condition matcher) is for the few components that ask about a subject
// instance (the upgrade overlay): it stays with them, out of the chunk every screen loads.
const NOT_SHARED = /\/src\/app\/session\/ability\.ts$/

/** The modules the entries import statically (transitively): these stay where Rollup puts them. */
function staticallyFromEntries(meta: ManualChunkMeta): Set<string> {
  const reached = new Set<string>()
  const pending = [...meta.getModuleIds()].filter((id) => meta.getModuleInfo(id)?.isEntry)
  while (pending.length > 0) {
    const id = pending.pop()!
    if (reached.has(id)) continue
    reached.add(id)
    pending.push(...(meta.getModuleInfo(id)?.importedIds ?? []))
  }
  return reached
}

export function sharedScreenCode(): GetManualChunk {
  let entryModules: Set<string> | undefined
  return (id, meta) => {
    entryModules ??= staticallyFromEntries(meta)
    // Rollup pulls the static imports of a manual chunk's modules into it unless they sit in a manual chunk too, so
    // the entry's own modules are named as well (same chunk as before: the entry, named `index`).
    if (entryModules.has(id)) return 'index'
    return SHARED.test(id) && !NOT_SHARED.test(id) ? 'shared' : null
  }
}
