// Reading back the server state behind what a journey saw: the GraphQL API as the page asks it (same session, CSRF
// header), and, for what has no API to read it (the recommender's tracking events), the service's own tables in
// the scratch database scripts/e2e made (E2E_DATABASE_URL), through psql.
import { execFileSync } from 'node:child_process'
import type { Page, Request } from 'playwright-core'

export interface GraphqlAnswer<T> {
  data?: T
  errors?: Array<{ message: string; extensions?: { code?: string } }>
}

/**
 * The operation a request of the page's own to /graphql names: a query's GET carries it in the query string (the
 * persisted document's hash, docs/decisions/graphql/persisted-documents-queries-get.md), a mutation's POST in its body.
 */
export function graphqlOperation(request: Request): { operationName?: string; variables?: unknown } | undefined {
  const url = new URL(request.url())
  if (url.pathname !== '/graphql') return undefined
  if (request.method() === 'GET') {
    const variables = url.searchParams.get('variables')
    return { operationName: url.searchParams.get('operationName') ?? undefined, variables: variables ? JSON.parse(variables) : undefined }
  }
  const body = JSON.parse(request.postData() ?? '{}') as { operationName?: string; variables?: unknown }
  return { operationName: body.operationName, variables: body.variables }
}

/** One GraphQL operation from the page, as the signed-in user of its brand. */
export async function graphqlFromPage<T = Record<string, unknown>>(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<GraphqlAnswer<T>> {
  return page.evaluate(
    async ({ query, variables }) => {
      const response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
        body: JSON.stringify({ query, variables }),
      })
      return (await response.json()) as GraphqlAnswer<T>
    },
    { query, variables },
  )
}

/** A POST with a JSON body from the page (same session and CSRF header as the app's REST calls). */
export async function postFromPage(page: Page, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
        body: JSON.stringify(body),
      })
      const text = await response.text()
      let parsed: unknown = null
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
      return { status: response.status, body: parsed }
    },
    { path, body },
  )
}

/** The first column of each row a query returns, as text; the query runs in the scratch database of the stack. */
export function sqlColumn(query: string): string[] {
  const url = process.env.E2E_DATABASE_URL
  if (!url) throw new Error('E2E_DATABASE_URL is not set: run the journeys with scripts/e2e')
  const out = execFileSync('psql', [url, '-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-c', query], { encoding: 'utf8' })
  return out.split('\n').filter((line) => line !== '')
}

/** A quoted SQL literal (journey values only, never user input). */
export const literal = (value: string) => `'${value.replaceAll("'", "''")}'`
