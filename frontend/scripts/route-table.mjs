// The route table (config/routes.json) is generated: each feature owns its rows in src/features/<feature>/routes/rows.json,
// and the table's head (what the step kinds are, which parameters are slugs) is the routing engine's, in
// src/app/routing/tableHead.json. The gateway's edge builds config/routes.json in (gateway/src/routes.rs, include_str!)
// and the browser's engine reads it too (src/app/routing/table.ts), so both read exactly the features' rows.
//
//   node scripts/route-table.mjs           writes config/routes.json (npm run routes)
//   node scripts/route-table.mjs --check   exits 1 when config/routes.json is not what the fragments generate (npm run lint)
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const frontend = fileURLToPath(new URL('..', import.meta.url))
const repo = join(frontend, '..')
const TABLE = join(repo, 'config', 'routes.json')
const HEAD = join(frontend, 'src', 'app', 'routing', 'tableHead.json')
const FEATURES = join(frontend, 'src', 'features')
const WIDTH = 120

/** Every feature's rows, features in name order, each feature's rows in its own order. */
export function featureRows() {
  const rows = []
  const owner = new Map()
  for (const feature of readdirSync(FEATURES).sort()) {
    const file = join(FEATURES, feature, 'routes', 'rows.json')
    if (!existsSync(file)) continue
    const fragment = JSON.parse(readFileSync(file, 'utf8'))
    if (!Array.isArray(fragment)) throw new Error(`${relative(repo, file)}: a list of rows`)
    for (const row of fragment) {
      if (typeof row?.path !== 'string' || !Array.isArray(row.steps)) {
        throw new Error(`${relative(repo, file)}: every row has a path and its steps`)
      }
      if (owner.has(row.path)) throw new Error(`${row.path} is a row of both ${owner.get(row.path)} and ${feature}`)
      owner.set(row.path, feature)
      rows.push(row)
    }
  }
  if (!owner.has('*')) throw new Error("no feature owns the catch-all row '*'")
  const tie = rankTie(rows)
  if (tie) throw new Error(`${tie[0]} and ${tie[1]} match the same path at the same rank: the table's order would decide`)
  return rows
}

/**
 * Two rows that match one path at the same rank, if any. The readers rank paths as react-router does (10 a static
 * segment, 3 a parameter, plus the count) and only a tie falls back to the table's order; with no tie the rows'
 * order, which follows the features' names, decides nothing.
 */
function rankTie(rows) {
  const shapes = rows
    .filter((row) => row.path !== '*')
    .flatMap((row) => {
      const segments = row.path.split('/').filter((segment) => segment !== '')
      const optional = segments.at(-1)?.endsWith('?')
      return optional ? [[row.path, segments.slice(0, -1)], [row.path, segments]] : [[row.path, segments]]
    })
  const isParam = (segment) => segment.startsWith(':')
  const score = (segments) => segments.length + segments.reduce((sum, segment) => sum + (isParam(segment) ? 3 : 10), 0)
  for (const [index, [path, a]] of shapes.entries()) {
    for (const [other, b] of shapes.slice(index + 1)) {
      if (path === other || a.length !== b.length || score(a) !== score(b)) continue
      const overlap = a.every((segment, i) => isParam(segment) || isParam(b[i]) || segment.toLowerCase() === b[i].toLowerCase())
      if (overlap) return [path, other]
    }
  }
  return undefined
}

/** JSON laid out as the table always was: a value on one line when it fits in WIDTH columns, else one member a line. */
function layout(value, indent, prefix = 0) {
  const flat = inline(value)
  if (indent.length + prefix + flat.length <= WIDTH || value === null || typeof value !== 'object') return flat
  const inner = `${indent}  `
  const items = Array.isArray(value)
    ? value.map((item) => `${inner}${layout(item, inner)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${layout(item, inner, JSON.stringify(key).length + 2)}`)
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return `${open}\n${items.join(',\n')}\n${indent}${close}`
}

function inline(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`
  const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`)
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`
}

/** config/routes.json's text: the head's keys, then the rows, one a line where they fit. */
export function generate() {
  const head = JSON.parse(readFileSync(HEAD, 'utf8'))
  const lines = Object.entries(head).map(([key, value]) => `  ${JSON.stringify(key)}: ${inline(value)}`)
  const rows = featureRows().map((row) => `    ${layout(row, '    ')}`)
  return `{\n${lines.join(',\n')},\n  "routes": [\n${rows.join(',\n')}\n  ]\n}\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = generate()
  if (process.argv.includes('--check')) {
    if (readFileSync(TABLE, 'utf8') !== text) {
      console.error(
        'config/routes.json is not what the features\' routes/rows.json generate: run `npm run routes` and commit the result.',
      )
      process.exit(1)
    }
  } else {
    writeFileSync(TABLE, text)
  }
}
