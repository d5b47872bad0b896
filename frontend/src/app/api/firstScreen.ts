// The first screen's data that came with the page (gateway first_screen.rs): the edge ran the landing page's first
// query, for a signed-in user the shell's own (the header's gems balance) and what the screen's parts ask with its
// answer (a member's media tokens), for the same session, and wrote the answers into
// <script id="paysite-first-screen" type="application/json">. The cache starts from them, so the loader's query for
// that screen, its parts' queries and the shell's answer from the cache, and the first render asks the network for
// nothing it already has. Each answer is used once, for exactly the query it answers: another operation, or the same
// with other variables (a window wider than the request said), asks the network as before.
import type { ApolloClient, TypedDocumentNode } from '@apollo/client'
import type { OperationDefinitionNode } from 'graphql'
import type { AnyVariables, ScreenQuery } from '../screenQuery'

export const FIRST_SCREEN_ELEMENT_ID = 'paysite-first-screen'

/** One answer of the page: the operation, its variables and its data. */
export interface EmbeddedAnswer {
  operation: string
  variables: Record<string, unknown>
  data: Record<string, unknown>
}

/** The page's answers, the screen's first. */
export interface FirstScreen {
  answers: EmbeddedAnswer[]
}

type AnyQuery = ScreenQuery<unknown, Record<string, unknown>>
type Writer = Pick<ApolloClient, 'writeQuery'>

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isAnswer(value: unknown): value is EmbeddedAnswer {
  return isRecord(value) && typeof value.operation === 'string' && isRecord(value.variables) && isRecord(value.data)
}

/** The page's first screen, or null when the page came without one (or with one that does not parse). */
export function readFirstScreen(doc: Document): FirstScreen | null {
  const text = doc.getElementById(FIRST_SCREEN_ELEMENT_ID)?.textContent
  if (!text) return null
  try {
    const parsed: unknown = JSON.parse(text)
    if (!isRecord(parsed) || !Array.isArray(parsed.answers) || !parsed.answers.every(isAnswer)) return null
    return { answers: parsed.answers }
  } catch {
    return null
  }
}

/** JSON with every object's keys in order, so variables compare by value whatever order they were built in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isRecord(inner) ? Object.fromEntries(Object.keys(inner).sort().map((key) => [key, inner[key]])) : inner,
  )
}

function operationName(query: TypedDocumentNode<unknown, AnyVariables>): string | undefined {
  const operation = query.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
  return operation?.name?.value
}

/** Whether the embedded answer is the answer to exactly this query. */
export function answers(embedded: EmbeddedAnswer, query: AnyQuery): boolean {
  return operationName(query.query) === embedded.operation && canonicalJson(query.variables) === canonicalJson(embedded.variables)
}

type Documents = ReadonlyArray<TypedDocumentNode<unknown, AnyVariables>>

/**
 * Writes the page's answers after the screen's own (the shell's, the screen's parts') whose operation is one of
 * `documents`, each for exactly the variables it answers, and says which it wrote: the operations whose answer is as
 * fresh as the page.
 */
export function seedPageAnswers(client: Writer, first: FirstScreen | null, documents: Documents): Set<string> {
  const seeded = new Set<string>()
  for (const embedded of first?.answers.slice(1) ?? []) {
    const query = documents.find((document) => operationName(document) === embedded.operation)
    if (!query) continue
    client.writeQuery({ query, variables: embedded.variables, data: embedded.data })
    seeded.add(embedded.operation)
  }
  return seeded
}

/**
 * Seeds the cache with the page's screen answer before the first screen query runs, and with the answers the page
 * carries for the screen's parts (`pageAnswers`); called with every screen query, it acts on the first only (later
 * navigations ask for themselves).
 */
export function firstScreenSeeder(client: Writer, first: FirstScreen | null) {
  let pending = first
  return (query: AnyQuery, pageAnswers: Documents = []): boolean => {
    const page = pending
    pending = null
    const embedded = page?.answers[0]
    if (!page || !embedded || !answers(embedded, query)) return false
    client.writeQuery({ query: query.query, variables: query.variables, data: embedded.data })
    seedPageAnswers(client, page, pageAnswers)
    return true
  }
}
