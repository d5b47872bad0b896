// @vitest-environment node
// One screen or modal per file (docs/decisions/front-end/feature-copy-lives-feature-one-screen-per-file.md): under
// src/features each screen (a component whose name ends in Screen) and each modal (a modal body: its name is its id in
// the registry, shell/modalIds.ts, or ends in Modal) has a file of its own, named after it. The lazy boundaries a
// route table or the modal host imports (routes/screens.ts, modals/index.ts) hold no screen or modal themselves: they
// are .ts modules that re-export them from their files.
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { MODAL_IDS } from './shell/modalIds'

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const modalIds = new Set<string>(MODAL_IDS)

/** Whether an exported name is a screen's or a modal's. */
const isScreenOrModal = (name: string) => /^[A-Z]\w*(Screen|Modal)$/.test(name) || modalIds.has(name)

interface Exported {
  name: string
  /** Declared in the module itself, as opposed to passed on from another (`export { X } from './X'`). */
  defined: boolean
}

const exportedHere = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)

/** The values a module exports (types left out), each with whether it defines it. */
function exportedValues(fileName: string, source: string): Exported[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: Exported[] = []
  for (const statement of file.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && exportedHere(statement) && statement.name) {
      found.push({ name: statement.name.text, defined: true })
    } else if (ts.isVariableStatement(statement) && exportedHere(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) found.push({ name: declaration.name.text, defined: true })
      }
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        if (!element.isTypeOnly) found.push({ name: element.name.text, defined: statement.moduleSpecifier === undefined })
      }
    }
  }
  return found
}

/** Every module under src/features but the tests, by its path from src/. */
function featureModules(): Array<{ path: string; source: string }> {
  return readdirSync(join(src, 'features'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .sort()
    .map((file) => ({ path: join('features', file), source: readFileSync(join(src, 'features', file), 'utf8') }))
}

const screensAndModals = (path: string, source: string) => exportedValues(path, source).filter(({ name }) => isScreenOrModal(name))

describe('one screen or modal per file', () => {
  it('reads what a module exports: declared, listed and passed on; types and helpers are not screens', () => {
    const source = [
      '// export function NotThisScreen() {}',
      'export function JoinNowScreen() { return <p /> }',
      'export const SignupDeniedScreen = withScreenQuery(View, query)',
      'export type ThatScreen = { a: 1 }',
      'export interface OtherModal {}',
      'export function joinImageSrc() {}',
      'function LocalScreen() {}',
      'export { LocalScreen }',
      "export { UnlockChannel, helper } from './modals/UnlockChannel'",
      "export { VideoPage as VideoScreen } from '../index'",
      "export type { TypeScreen } from './types'",
    ].join('\n')
    expect(screensAndModals('a/screens.tsx', source)).toEqual([
      { name: 'JoinNowScreen', defined: true },
      { name: 'SignupDeniedScreen', defined: true },
      { name: 'LocalScreen', defined: true },
      { name: 'UnlockChannel', defined: false },
      { name: 'VideoScreen', defined: false },
    ])
    // The features' modules are all read, modal bodies among them.
    expect(featureModules().length).toBeGreaterThan(100)
    expect(modalIds.has('PurchaseMembership')).toBe(true)
  })

  it('has no .tsx file under src/features that exports more than one screen or modal', () => {
    const crowded = featureModules()
      .filter(({ path }) => path.endsWith('.tsx'))
      .map(({ path, source }) => ({ path, names: screensAndModals(path, source).map(({ name }) => name) }))
      .filter(({ names }) => names.length > 1)
      .map(({ path, names }) => `src/${path} exports ${names.length} screens or modals (${names.join(', ')}): one file each`)
    expect(crowded, crowded.join('\n')).toEqual([])
  })

  it('has no module under src/features that defines more than one (a lazy boundary only re-exports them)', () => {
    const crowded = featureModules()
      .map(({ path, source }) => ({ path, names: screensAndModals(path, source).filter((entry) => entry.defined).map(({ name }) => name) }))
      .filter(({ names }) => names.length > 1)
      .map(({ path, names }) => `src/${path} defines ${names.length} screens or modals (${names.join(', ')}): one file each`)
    expect(crowded, crowded.join('\n')).toEqual([])
  })

  it('names the file of a screen or modal after it', () => {
    const misnamed = featureModules()
      .map(({ path, source }) => ({ path, defined: screensAndModals(path, source).filter((entry) => entry.defined) }))
      .filter(({ path, defined }) => defined.length === 1 && basename(path).replace(/\.tsx?$/, '') !== defined[0]!.name)
      .map(({ path, defined }) => `src/${path} holds ${defined[0]!.name}: name it ${defined[0]!.name}${path.slice(path.lastIndexOf('.'))}`)
    expect(misnamed, misnamed.join('\n')).toEqual([])
  })
})
