// One module per GraphQL document in the production build. GraphQL Code Generator's client preset writes every typed
// document of the app into one module, src/gql/graphql.ts. Rollup places a module in one chunk, and the entry imports
// a document or two (the gems balance of the automatic modals), so every document of every screen — 74 kB of
// minified AST literals — landed in the entry and was parsed and evaluated before the first page could start
// (Lighthouse's TBT and LCP on a 4× slowed phone). This plugin rewrites `import { XDocument } from '…/gql/graphql'`
// into an import of a virtual module holding that one document, so each chunk carries the operations it runs; a
// re-export (`export { XDocument as XQuery } from '…/gql/graphql'`, as a feature's api module writes) likewise.
// Types are untouched (they are erased before this runs); tests and the dev server use graphql.ts as it is.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Plugin } from 'vite'

const VIRTUAL_PREFIX = '\0paysite-gql-document:'

/** `export const NameDocument = {…} as unknown as DocumentNode<…>;` — one line per document, as the preset writes. */
const DOCUMENT_LINE = /^export const (\w+(?:Document|FragmentDoc)) = (\{.*\}) as unknown as DocumentNode<.*>;$/

/** The documents of a generated graphql.ts, by export name, as JavaScript object literals. */
export function documentLiterals(source: string): Map<string, string> {
  const documents = new Map<string, string>()
  for (const line of source.split('\n')) {
    const match = DOCUMENT_LINE.exec(line.trimEnd())
    if (match) documents.set(match[1], match[2])
  }
  return documents
}

const IMPORT_OR_EXPORT = /\b(import|export)\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\3;?/g

/**
 * Rewrites the named imports (and re-exports) of `isGenerated(specifier)` modules that name documents into one import
 * (or re-export) per document from `moduleFor(name)`; names that are not documents stay on the original statement.
 * Answers null when nothing changed.
 */
export function splitDocumentImports(
  code: string,
  isGenerated: (specifier: string) => boolean,
  documents: ReadonlyMap<string, string>,
  moduleFor: (name: string) => string,
): string | null {
  let changed = false
  const rewritten = code.replace(IMPORT_OR_EXPORT, (statement, keyword: string, names: string, quote: string, specifier: string) => {
    if (!isGenerated(specifier)) return statement
    const kept: string[] = []
    const split: string[] = []
    for (const raw of names.split(',')) {
      const binding = raw.trim()
      if (binding === '') continue
      const [imported, local = imported] = binding.split(/\s+as\s+/).map((part) => part.trim())
      if (documents.has(imported)) {
        split.push(`${keyword} { ${imported}${local === imported ? '' : ` as ${local}`} } from ${quote}${moduleFor(imported)}${quote};`)
      } else {
        kept.push(binding)
      }
    }
    if (split.length === 0) return statement
    changed = true
    const rest = kept.length > 0 ? `${keyword} { ${kept.join(', ')} } from ${quote}${specifier}${quote};` : ''
    return [...split, rest].filter(Boolean).join('\n')
  })
  return changed ? rewritten : null
}

/** The Vite plugin (production builds only). `generated` is the client preset's graphql.ts. */
export function graphqlDocumentModules(generated = 'src/gql/graphql.ts'): Plugin {
  let generatedPath = ''
  let documents = new Map<string, string>()
  return {
    name: 'paysite-graphql-document-modules',
    apply: 'build',
    configResolved(config) {
      generatedPath = resolve(config.root, generated)
    },
    buildStart() {
      documents = documentLiterals(readFileSync(generatedPath, 'utf8'))
      this.addWatchFile(generatedPath)
    },
    resolveId(id) {
      return id.startsWith(VIRTUAL_PREFIX) ? id : null
    },
    load(id) {
      if (!id.startsWith(VIRTUAL_PREFIX)) return null
      const name = id.slice(VIRTUAL_PREFIX.length)
      const literal = documents.get(name)
      if (literal === undefined) this.error(`no document ${name} in ${generatedPath}`)
      return `export const ${name} = ${literal};\n`
    },
    transform(code, id) {
      if (!/\.[mc]?[jt]sx?$/.test(id.split('?')[0]) || id.includes('/node_modules/') || id === generatedPath) return null
      if (!code.includes('gql/graphql')) return null
      const dir = resolve(id.split('?')[0], '..')
      const isGenerated = (specifier: string) =>
        specifier.startsWith('.') && resolve(dir, specifier).replace(/\.ts$/, '') === generatedPath.replace(/\.ts$/, '')
      const rewritten = splitDocumentImports(code, isGenerated, documents, (name) => `${VIRTUAL_PREFIX}${name}`)
      return rewritten === null ? null : { code: rewritten, map: null }
    },
  }
}
