// @vitest-environment node
// The copy's split (index.ts, docs/decisions/): a key is in the shell's copy (en.ts) or in one copy module, and
// every source file that names a key of a copy module imports that module itself, so the words are there whenever
// the code that shows them has run, whichever chunk it ends up in.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { en } from './en'

type Tree = { readonly [key: string]: string | Tree }

const here = dirname(fileURLToPath(import.meta.url))
const src = resolve(here, '../..')
const copyModules = import.meta.glob<Record<string, Tree>>('./copy/*.ts', { eager: true })
const copies = new Map(
  Object.entries(copyModules).map(([path, module]) => [path.replace(/^\.\/copy\/|\.ts$/g, ''), Object.values(module)[0]!]),
)

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

function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|^test\/|^gql\/|^app\/i18n\/(en|resources|index)\.ts$|^app\/i18n\/copy\//.test(file))
    .map((file) => join(src, file))
}

/** The copy modules a file imports (by path, relative to it). */
function importedCopies(file: string, source: string): Set<string> {
  const imported = new Set<string>()
  for (const match of source.matchAll(/import\s+['"](\.[^'"]+)['"]/g)) {
    const target = relative(join(here, 'copy'), resolve(dirname(file), match[1]!))
    if (!target.startsWith('..') && !target.includes('/')) imported.add(target)
  }
  return imported
}

describe('the copy split', () => {
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
          missing.push(`${relative(src, file)}: ${key} (import app/i18n/copy/${owners.join(' or ')})`)
        }
      }
    }
    expect(missing).toEqual([])
  })
})
