import { describe, expect, it, vi } from 'vitest'
import { GemsBalanceQuery } from '../../features/gems/api/gems'
import { tenantConfig } from '../routing/testing'
import { AcknowledgeNewGemsBalanceDocument } from '../../gql/graphql'
import documents from '../../gql/persisted-documents.json'
import { createGraphqlClient, persistedHash } from './graphqlClient'

const manifest: Record<string, string> = documents
import { fetchTenantConfig } from './tenantConfig'
import type { SessionRefresher } from './sessionRefresh'
import { fakeFetch, json, type Answer } from './testing'

const balance = {
  getGemsBalance: {
    __typename: 'GemsBalance',
    daysUntilRefreshGems: 3,
    payPerVideoCredits: 0,
    weeklyGems: 10,
    gems: { __typename: 'GemsState', lastAcknowledgementDate: null, hasNewGems: false, mayShowGemsModal: true },
    wallet: { __typename: 'Wallet', balance: { __typename: 'Balance', amount: 20 } },
  },
}
const unauthenticated = { data: null, errors: [{ message: 'sign in', extensions: { code: 'UNAUTHENTICATED' } }] }

function client(refreshAnswers: boolean[], ...answers: Answer[]) {
  const fake = fakeFetch(...answers)
  const refresh = vi.fn(async () => refreshAnswers.shift() ?? false)
  const refresher: SessionRefresher = { refresh }
  return { client: createGraphqlClient({ refresher, fetch: fake.fetch }), calls: fake.calls, refresh }
}

describe('the GraphQL client', () => {
  it('GETs a query from same-origin /graphql by its hash alone, with the CSRF header and a correlation id', async () => {
    const { client: apollo, calls } = client([], json({ data: balance }))
    const { data } = await apollo.query({ query: GemsBalanceQuery })
    expect(data?.getGemsBalance.wallet.balance.amount).toBe(20)
    const [request] = calls
    expect(request!.method).toBe('GET')
    const url = new URL(request!.url)
    expect(url.pathname).toBe('/graphql')
    expect(url.searchParams.get('query')).toBeNull()
    expect(url.searchParams.get('operationName')).toBe('GemsBalance')
    expect(JSON.parse(url.searchParams.get('extensions')!)).toEqual({
      persistedQuery: { version: 1, sha256Hash: persistedHash(GemsBalanceQuery) },
    })
    expect(manifest[persistedHash(GemsBalanceQuery)!]).toContain('query GemsBalance')
    expect(request!.credentials).toBe('same-origin')
    expect(request!.headers.get('x-paysite-csrf')).toBe('1')
    expect(request!.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('POSTs a mutation by its hash alone', async () => {
    const { client: apollo, calls } = client([], json({ data: { acknowledgeNewGemsBalance: { __typename: 'AcknowledgeNewGemsBalanceResult', lastAcknowledgementDate: null } } }))
    await apollo.mutate({ mutation: AcknowledgeNewGemsBalanceDocument })
    const [request] = calls
    expect(request!.method).toBe('POST')
    expect(request!.headers.get('content-type')).toMatch(/^application\/json/)
    const body = JSON.parse(await request!.text())
    expect(body.query).toBeUndefined()
    expect(body.extensions.persistedQuery.sha256Hash).toBe(persistedHash(AcknowledgeNewGemsBalanceDocument))
  })

  it('sends the text once by POST when the gateway asks for it (APQ registration in development)', async () => {
    const notFound = { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] }
    const { client: apollo, calls } = client([], json(notFound), json({ data: balance }))
    const { data } = await apollo.query({ query: GemsBalanceQuery })
    expect(data?.getGemsBalance.gems.hasNewGems).toBe(false)
    expect(calls.map((call) => call.method)).toEqual(['GET', 'POST'])
    expect(JSON.parse(await calls[1]!.text()).query).toContain('query GemsBalance')
  })

  it('reloads the page once when the gateway was built with other documents', async () => {
    const stale = { errors: [{ message: 'not registered', extensions: { code: 'DOCUMENT_NOT_REGISTERED' } }] }
    sessionStorage.clear()
    const reload = vi.fn()
    const fake = fakeFetch(json(stale), json(stale))
    const apollo = createGraphqlClient({ refresher: { refresh: async () => false }, fetch: fake.fetch, reload })
    await apollo.query({ query: GemsBalanceQuery, fetchPolicy: 'network-only' }).catch(() => undefined)
    await apollo.query({ query: GemsBalanceQuery, fetchPolicy: 'network-only' }).catch(() => undefined)
    expect(fake.calls.map((call) => call.method)).toEqual(['GET', 'GET'])
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('is cache-first: a second read of the same query does not ask again', async () => {
    const { client: apollo, calls } = client([], json({ data: balance }))
    await apollo.query({ query: GemsBalanceQuery })
    await apollo.query({ query: GemsBalanceQuery })
    expect(calls).toHaveLength(1)
  })

  it('sends a fresh correlation id with every request', async () => {
    const { client: apollo, calls } = client([], json({ data: balance }), json({ data: balance }))
    await apollo.query({ query: GemsBalanceQuery, fetchPolicy: 'network-only' })
    await apollo.query({ query: GemsBalanceQuery, fetchPolicy: 'network-only' })
    const ids = calls.map((call) => call.headers.get('x-correlation-id'))
    expect(ids[0]).not.toBe(ids[1])
  })

  it('on UNAUTHENTICATED refreshes the session and retries the operation once', async () => {
    const { client: apollo, calls, refresh } = client([true], json(unauthenticated), json({ data: balance }))
    const { data } = await apollo.query({ query: GemsBalanceQuery })
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(calls).toHaveLength(2)
    expect(data?.getGemsBalance.daysUntilRefreshGems).toBe(3)
    expect(calls[0]!.headers.get('x-correlation-id')).not.toBe(calls[1]!.headers.get('x-correlation-id'))
  })

  it('retries only once: a second UNAUTHENTICATED is the answer', async () => {
    const { client: apollo, calls, refresh } = client([true, true], json(unauthenticated), json(unauthenticated))
    await expect(apollo.query({ query: GemsBalanceQuery })).rejects.toThrow('sign in')
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(calls).toHaveLength(2)
  })

  it('does not retry when the refresh failed (the refresher has sent the browser to the login)', async () => {
    const { client: apollo, calls } = client([false], json(unauthenticated))
    await expect(apollo.query({ query: GemsBalanceQuery })).rejects.toThrow('sign in')
    expect(calls).toHaveLength(1)
  })

  it('leaves other errors alone', async () => {
    const { client: apollo, refresh } = client(
      [],
      json({ data: null, errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }] }),
    )
    await expect(apollo.query({ query: GemsBalanceQuery })).rejects.toThrow('no')
    expect(refresh).not.toHaveBeenCalled()
  })

  it('reads the tenant configuration from the gateway and checks its shape', async () => {
    const { client: apollo } = client([], json({ data: { tenantConfig: tenantConfig() } }))
    await expect(fetchTenantConfig(apollo)).resolves.toMatchObject({ tenant: 'tushy', theme: { wordmark: 'TUSHY' } })
  })

  it('refuses a tenant configuration without its routing fields', async () => {
    const { client: apollo } = client([], json({ data: { tenantConfig: { tenant: 'tushy' } } }))
    await expect(fetchTenantConfig(apollo)).rejects.toThrow('paysite bootstrap')
  })
})
