import { describe, expect, it } from 'vitest'
import { HttpError } from '../routing'
import { tenantConfig, userView } from '../routing/testing'
import { withScreenQuery } from '../screenQuery'
import { TenantConfigDocument } from '../../gql/graphql'
import { createGraphqlClient } from './graphqlClient'
import { screenDataPreloader } from './screenData'
import { fakeFetch, json, type Answer } from './testing'

const session = { tenant: tenantConfig(), user: userView(), isMembersArea: false }
const screen = withScreenQuery(() => null, (_data: unknown, _session, location) =>
  location.search === '?skip' ? null : { query: TenantConfigDocument, variables: {} },
)

function preloader(...answers: Answer[]) {
  const fake = fakeFetch(...answers)
  const client = createGraphqlClient({ refresher: { refresh: async () => false }, fetch: fake.fetch })
  return { preload: screenDataPreloader(client, session), client, calls: fake.calls }
}

const request = (url = 'http://tushy.localhost/videos') => new Request(url)
const failing = (code: string) => json({ data: null, errors: [{ message: `it is ${code}`, extensions: { code } }] })

describe('the screen data preloader', () => {
  it('runs the query the screen names, so the screen finds it in the cache', async () => {
    const { preload, client, calls } = preloader(json({ data: { tenantConfig: { tenant: 'tushy' } } }))
    await preload(screen, {}, request())
    expect(calls).toHaveLength(1)
    expect(client.readQuery({ query: TenantConfigDocument })).toEqual({ tenantConfig: { tenant: 'tushy' } })
  })

  it('asks nothing when the screen has no query for this location', async () => {
    const { preload, calls } = preloader()
    await preload(screen, {}, request('http://tushy.localhost/videos?skip'))
    expect(calls).toHaveLength(0)
  })

  it('turns NOT_FOUND into a 404 and UNAUTHENTICATED into a 401 for the shared loader error handler', async () => {
    const notFound = await preloader(failing('NOT_FOUND')).preload(screen, {}, request()).catch((error: unknown) => error)
    expect(notFound).toBeInstanceOf(HttpError)
    expect((notFound as HttpError).status).toBe(404)
    const unauthenticated = await preloader(failing('UNAUTHENTICATED'))
      .preload(screen, {}, request())
      .catch((error: unknown) => error)
    expect((unauthenticated as HttpError).status).toBe(401)
  })

  it('passes any other failure on as it is (the e500 page)', async () => {
    const other = await preloader(failing('INTERNAL')).preload(screen, {}, request()).catch((error: unknown) => error)
    expect(other).not.toBeInstanceOf(HttpError)
    expect(String(other)).toContain('it is INTERNAL')
  })
})
