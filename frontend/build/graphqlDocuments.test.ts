import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { documentLiterals, splitDocumentImports } from './graphqlDocuments'

const generated = readFileSync(join(process.cwd(), 'src/gql/graphql.ts'), 'utf8')

describe('documentLiterals', () => {
  it('finds every document the client preset wrote, each a literal that evaluates to its DocumentNode', async () => {
    const documents = documentLiterals(generated)
    const exported = [...generated.matchAll(/^export const (\w+) = /gm)].map((match) => match[1])
    expect([...documents.keys()].sort()).toEqual(exported.sort())
    const module = (await import('../src/gql/graphql')) as unknown as Record<string, unknown>
    for (const [name, literal] of documents) {
      expect(JSON.parse(literal), name).toEqual(module[name])
    }
  })
})

describe('splitDocumentImports', () => {
  const documents = new Map([
    ['HomePageDocument', '{}'],
    ['GemsBalanceDocument', '{}'],
  ])
  const isGenerated = (specifier: string) => specifier.endsWith('/gql/graphql')
  const split = (code: string) => splitDocumentImports(code, isGenerated, documents, (name) => `virtual:${name}`)

  it('gives each imported document its own module, keeping aliases', () => {
    expect(split(`import { HomePageDocument, GemsBalanceDocument as Gems } from "../../gql/graphql";\nuse(Gems)`)).toBe(
      `import { HomePageDocument } from "virtual:HomePageDocument";\nimport { GemsBalanceDocument as Gems } from "virtual:GemsBalanceDocument";\nuse(Gems)`,
    )
  })

  it('leaves names that are not documents on the generated module', () => {
    expect(split(`import { HomePageDocument, somethingElse } from '../gql/graphql'`)).toBe(
      `import { HomePageDocument } from 'virtual:HomePageDocument';\nimport { somethingElse } from '../gql/graphql';`,
    )
  })

  it('gives each re-exported document its own module too, keeping the exported names', () => {
    expect(split(`export {\n  GemsBalanceDocument as GemsBalanceQuery,\n  somethingElse,\n} from '../../gql/graphql'`)).toBe(
      [`export { GemsBalanceDocument as GemsBalanceQuery } from 'virtual:GemsBalanceDocument';`, `export { somethingElse } from '../../gql/graphql';`].join('\n'),
    )
  })

  it('changes nothing in modules that import other modules or no document', () => {
    expect(split(`import { HomePageDocument } from './graphql'`)).toBeNull()
    expect(split(`import { somethingElse } from '../gql/graphql'`)).toBeNull()
  })
})
