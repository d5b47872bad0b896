// @vitest-environment node
/// <reference types="node" />
// The committed typed documents (src/gql, written by `npm run codegen`) must be what the gateway's current schema
// gives: a schema change that breaks a document, or a document changed without regenerating, fails here. The build
// does not run codegen itself because the SPA image builds from frontend/ alone, without gateway/.
import { generate } from '@graphql-codegen/cli'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import config from '../../../codegen'

const frontend = fileURLToPath(new URL('../../..', import.meta.url))

describe('typed GraphQL documents', () => {
  it('are up to date with gateway/schema.graphql (run `npm run codegen` when this fails)', async () => {
    const previous = process.cwd()
    process.chdir(frontend)
    try {
      const outputs = await generate({ ...config, silent: true }, false)
      expect(outputs.length).toBeGreaterThan(0)
      for (const { filename, content } of outputs) {
        expect([filename, readFileSync(resolve(frontend, filename), 'utf8')]).toEqual([filename, content])
      }
    } finally {
      process.chdir(previous)
    }
  }, 60_000)
})
