import { afterEach, describe, expect, it } from 'vitest'
import { HttpError } from '../routing'
import { tenantConfig, userView } from '../routing/testing'
import { withScreenQuery } from '../screenQuery'
import { TenantConfigDocument } from '../../gql/graphql'
import { createGraphqlClient } from './graphqlClient'
import { preloadImage, screenDataPreloader } from './screenData'
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

describe('the leading images of a screen', () => {
  afterEach(() => {
    document.head.innerHTML = ''
  })

  const preloads = () =>
    [...document.head.querySelectorAll('link[rel="preload"][as="image"]')].map((link) => ({
      href: link.getAttribute('href'),
      srcset: link.getAttribute('imagesrcset'),
      priority: link.getAttribute('fetchpriority'),
    }))

  it('are fetched with high priority as soon as the query answers, with the srcset of their <img>', async () => {
    const leading = withScreenQuery(
      () => null,
      () => ({ query: TenantConfigDocument, variables: {} }),
      // tenantConfig is JSON in the schema: this test's answer gives it a tenant.
      {
        leadingImages: (result) => [
          { src: `/media/${(result.tenantConfig as { tenant: string }).tenant}.svg`, highdpi: { double: '/media/2x.svg', triple: '/media/3x.svg' } },
        ],
      },
    )
    const { preload } = preloader(json({ data: { tenantConfig: { tenant: 'tushy' } } }))
    await preload(leading, {}, request())
    expect(preloads()).toEqual([
      { href: '/media/tushy.svg', srcset: '/media/tushy.svg 1x, /media/2x.svg 2x, /media/3x.svg 3x', priority: 'high' },
    ])
  })

  it('are preloaded once, and not at all when the query fails', async () => {
    preloadImage(document, { src: '/media/a.svg' })
    preloadImage(document, { src: '/media/a.svg' })
    expect(preloads()).toEqual([{ href: '/media/a.svg', srcset: null, priority: 'high' }])
    const leading = withScreenQuery(
      () => null,
      () => ({ query: TenantConfigDocument, variables: {} }),
      { leadingImages: () => [{ src: '/media/never.svg' }] },
    )
    await preloader(failing('NOT_FOUND')).preload(leading, {}, request()).catch(() => undefined)
    expect(preloads()).toHaveLength(1)
  })
})
