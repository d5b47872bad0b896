// Typed documents from the gateway's schema (STYLE 13): `npm run codegen` writes src/gql/.
import { createHash } from 'node:crypto'
import type { CodegenConfig } from '@graphql-codegen/cli'
import type { Types } from '@graphql-codegen/plugin-helpers'
import { addTypenameToDocument } from '@apollo/client/utilities'

const apolloTypenames: Types.DocumentTransformObject = {
  transform: ({ documents }) =>
    documents.map((file) => ({ ...file, document: file.document && addTypenameToDocument(file.document) })),
}

const config: CodegenConfig = {
  schema: '../gateway/schema.graphql',
  // Operations live in .graphql files beside their feature; code imports the typed documents from src/gql/graphql.ts
  // (never the graphql() map of gql.ts, which would bundle every operation into each chunk that imports it).
  documents: ['src/**/*.{ts,tsx}', 'src/**/*.graphql', '!src/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    './src/gql/': {
      preset: 'client',
      presetConfig: {
        fragmentMasking: { unmaskFunctionName: 'getFragmentData' },
        // Every operation registered by its hash (src/gql/persisted-documents.json, built into the gateway):
        // the client sends the hash alone, queries as GET (docs/decisions, "Persisted documents").
        // The hash is the SHA-256 of exactly the text the manifest holds, so the gateway can check it.
        persistedDocuments: {
          hashAlgorithm: (operation: string) => createHash('sha256').update(operation).digest('hex'),
        },
      },
      // The registered text asks for __typename exactly where Apollo's cache adds it to what it sends (Apollo's
      // own transform), so the answer to a hash has the shape the cache normalises.
      documentTransforms: [apolloTypenames],
      config: {
        useTypeImports: true,
        // Only what our documents use: a field added elsewhere in the gateway's schema changes nothing here.
        onlyOperationTypes: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
    },
  },
}

export default config
