// Typed documents from the gateway's schema (STYLE 13): `npm run codegen` writes src/gql/.
import type { CodegenConfig } from '@graphql-codegen/cli'

const config: CodegenConfig = {
  schema: '../gateway/schema.graphql',
  // Operations live in .graphql files beside their feature; code imports the typed documents from src/gql/graphql.ts
  // (never the graphql() map of gql.ts, which would bundle every operation into each chunk that imports it).
  documents: ['src/**/*.{ts,tsx}', 'src/**/*.graphql', '!src/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    './src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: { unmaskFunctionName: 'getFragmentData' } },
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
