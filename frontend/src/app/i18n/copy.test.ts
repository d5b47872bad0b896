// @vitest-environment node
// The copy's split (index.ts, docs/decisions/): a key is in the shell's copy (en.ts) or in one copy module, and
// every source file that names a key of a copy module imports that module itself, so the words are there whenever
// the code that shows them has run, whichever chunk it ends up in. A copy module is the shared one (copy/shared.ts:
// what several features read) or a feature's own (features/<feature>/copy.ts), which only that feature imports
// (docs/decisions/front-end/feature-copy-lives-feature-one-screen-per-file.md).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { en } from './en'

type Tree = { readonly [key: string]: string | Tree }

const here = dirname(fileURLToPath(import.meta.url))
const src = resolve(here, '../..')
const copyModules = {
  ...import.meta.glob<Record<string, Tree>>('./copy/*.ts', { eager: true }),
  ...import.meta.glob<Record<string, Tree>>('../../features/*/copy.ts', { eager: true }),
}
/** Each copy module by its path from src/ without the extension ('app/i18n/copy/shared', 'features/gems/copy'). */
const copies = new Map(
  Object.entries(copyModules).map(([path, module]) => [
    relative(src, resolve(here, path)).replace(/\.ts$/, ''),
    Object.values(module)[0]!,
  ]),
)
const SHARED = 'app/i18n/copy/shared'

/** The feature a copy module belongs to ('gems' for features/gems/copy), none for the shared copy. */
const featureOfCopy = (name: string) => /^features\/([^/]+)\/copy$/.exec(name)?.[1]

/** The feature a source file is in ('gems' for features/gems/components/GemsEntry.tsx), none outside the features. */
const featureOfFile = (file: string) => /^features\/([^/]+)\//.exec(relative(src, file))?.[1]

function leaves(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leaves(value, `${prefix}${key}.`),
  )
}

/** Whether `path` names a text or, with `branch`, a group of keys (or a text with plural forms) in `tree`. */
function holds(tree: Tree, path: string, branch: boolean): boolean {
  const parts = path.split('.')
  let node: string | Tree | undefined = tree
  for (const part of parts) {
    if (node === undefined || typeof node === 'string') return false
    node = node[part]
  }
  if (node !== undefined) return branch ? typeof node !== 'string' || parts.length > 1 : typeof node === 'string'
  const last = parts.pop()!
  const parent = parts.reduce<string | Tree | undefined>((at, part) => (typeof at === 'object' ? at[part] : undefined), tree)
  return typeof parent === 'object' && Object.keys(parent).some((key) => key.startsWith(`${last}_`))
}

const namespaces = new Set([...Object.keys(en), ...[...copies.values()].flatMap((copy) => Object.keys(copy))])

/** The keys a source file names: a quoted key, or the fixed start of a template that builds one. */
function namedKeys(source: string): Array<{ key: string; branch: boolean }> {
  const found: Array<{ key: string; branch: boolean }> = []
  for (const match of source.matchAll(/(['"`])([A-Za-z_]+)\.([\w.]*?)(\$\{|\1)/g)) {
    if (!namespaces.has(match[2]!)) continue
    const branch = match[4] === '${'
    const path = `${match[2]}.${match[3]}`
    found.push({ key: branch ? path.replace(/\.?[^.]*$/, '') : path, branch })
  }
  return found
}

/** Whether a key a file names (a text, or the fixed start of a built one) is the text `leaf` or one of its plural forms. */
function names(named: { key: string; branch: boolean }, leaf: string): boolean {
  if (named.branch) return leaf.startsWith(`${named.key}.`)
  return leaf === named.key || (leaf.startsWith(named.key) && /^_(zero|one|two|few|many|other)$/.test(leaf.slice(named.key.length)))
}

/** Every source file but the tests, the generated code, the translator itself and the copy modules. */
function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|^test\/|^gql\/|^app\/i18n\/(en|resources|index)\.ts$/.test(file))
    .filter((file) => !copies.has(file.replace(/\.ts$/, '')))
    .map((file) => join(src, file))
}

/** The copy modules a file imports for their words (`import '…'`), by name. */
function importedCopies(file: string, source: string): Set<string> {
  const imported = new Set<string>()
  for (const match of source.matchAll(/import\s+['"](\.[^'"]+)['"]/g)) {
    const target = relative(src, resolve(dirname(file), match[1]!)).replace(/\.ts$/, '')
    if (copies.has(target)) imported.add(target)
  }
  return imported
}

/** The copy modules a file imports in any way (`import '…'`, `import … from '…'`, `export … from '…'`, `import('…')`). */
function anyImportedCopies(file: string, source: string): Set<string> {
  const imported = new Set<string>()
  for (const match of source.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.[^'"]+)['"]/g)) {
    const target = relative(src, resolve(dirname(file), match[1]!)).replace(/\.ts$/, '')
    if (copies.has(target)) imported.add(target)
  }
  return imported
}

describe('the copy split', () => {
  it('finds every copy module: each module that adds translations is the shared copy or a feature’s copy.ts', () => {
    expect(copies.has(SHARED)).toBe(true)
    expect([...copies.keys()].filter((name) => name !== SHARED && featureOfCopy(name) === undefined)).toEqual([])
    const adders = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|^gql\/|^app\/i18n\/resources\.ts$/.test(file))
      .filter((file) => /\baddTranslations\(/.test(readFileSync(join(src, file), 'utf8')))
      .map((file) => file.replace(/\.ts$/, ''))
    expect(adders.filter((file) => !copies.has(file))).toEqual([])
    expect(adders.sort()).toEqual([...copies.keys()].sort())
  })

  it('has each key once: in the shell’s copy or in one copy module', () => {
    const all = [leaves(en), ...[...copies.values()].map((copy) => leaves(copy))].flat()
    expect(all.filter((key, index) => all.indexOf(key) !== index)).toEqual([])
  })

  it('finds the keys it checks (a sample of quoted and built keys)', () => {
    expect(namedKeys("t('deals.cams.title') t(`health_warning.${region}`) 'react-router' 'x.y'")).toEqual([
      { key: 'deals.cams.title', branch: false },
      { key: 'health_warning', branch: true },
    ])
  })

  it('has every file that names a key of a copy module import that module', () => {
    const missing: string[] = []
    for (const file of sourceFiles()) {
      const source = readFileSync(file, 'utf8')
      const imported = importedCopies(file, source)
      for (const { key, branch } of namedKeys(source)) {
        if (holds(en, key, branch)) continue
        const owners = [...copies].filter(([, copy]) => holds(copy, key, branch)).map(([name]) => name)
        if (owners.length > 0 && !owners.some((owner) => imported.has(owner))) {
          missing.push(`${relative(src, file)}: ${key} (import ${owners.join(' or ')})`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it('has a feature’s copy imported by that feature’s code only: copy other code reads is shared', () => {
    const foreign: string[] = []
    for (const file of sourceFiles()) {
      for (const name of anyImportedCopies(file, readFileSync(file, 'utf8'))) {
        const owner = featureOfCopy(name)
        if (owner !== undefined && owner !== featureOfFile(file)) foreign.push(`${relative(src, file)} imports ${name}`)
      }
    }
    expect(foreign).toEqual([])
  })

  it('has in the shared copy only keys that several features, or the code they share, read', () => {
    const sharedKeys = leaves(copies.get(SHARED)!)
    const readers = new Map(sharedKeys.map((leaf) => [leaf, new Set<string>()]))
    for (const file of sourceFiles()) {
      const named = namedKeys(readFileSync(file, 'utf8'))
      // Code outside the features (components, app) is shared code: one reader there counts as several.
      const reader = featureOfFile(file) ?? 'shared code'
      for (const leaf of sharedKeys) {
        if (named.some((key) => names(key, leaf))) readers.get(leaf)!.add(reader)
      }
    }
    const single = [...readers]
      .filter(([, by]) => by.size < 2 && !by.has('shared code'))
      .map(([leaf, by]) => `${leaf}: read by ${by.size === 0 ? 'no module' : `features/${[...by][0]} alone`}`)
    expect(single).toEqual([])
  })
})
