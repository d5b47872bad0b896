// The first coded refusal of a GraphQL answer (STYLE 6: `extensions.code` in SCREAMING_SNAKE, with the refusal's
// extra fields beside it, e.g. NOT_ENOUGH_GEMS with daysUntilRefreshGems). Features switch on the code.
import { CombinedGraphQLErrors } from '@apollo/client'

export interface Refusal {
  code: string
  message: string
  extensions: Readonly<Record<string, unknown>>
}

export function refusalOf(error: unknown): Refusal | null {
  if (!CombinedGraphQLErrors.is(error)) return null
  for (const entry of error.errors) {
    const code = entry.extensions?.code
    if (typeof code === 'string') return { code, message: entry.message, extensions: entry.extensions ?? {} }
  }
  const first = error.errors[0]
  return first ? { code: 'UNKNOWN', message: first.message, extensions: first.extensions ?? {} } : null
}

/** A number among a refusal's extra fields, when it is one. */
export function refusalNumber(refusal: Refusal | null, field: string): number | null {
  const value = refusal?.extensions[field]
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}
