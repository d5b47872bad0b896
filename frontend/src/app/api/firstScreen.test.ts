import { afterEach, describe, expect, it } from 'vitest'
import { tenantConfig, userView } from '../routing/testing'
import { withScreenQuery } from '../screenQuery'
import { TenantConfigDocument, VideoFavoriteDocument, VideoTokensDocument } from '../../gql/graphql'
import { canonicalJson, FIRST_SCREEN_ELEMENT_ID, readFirstScreen, seedPageAnswers, type EmbeddedAnswer, type FirstScreen } from './firstScreen'
import { createGraphqlClient } from './graphqlClient'
import { screenDataPreloader } from './screenData'
import { fakeFetch, json } from './testing'

const session = { tenant: tenantConfig(), user: userView(), isMembersArea: false }
const screen = withScreenQuery(() => null, () => ({ query: TenantConfigDocument, variables: {} }))
const answer: EmbeddedAnswer = { operation: 'TenantConfig', variables: {}, data: { tenantConfig: { tenant: 'embedded' } } }
const embedded: FirstScreen = { answers: [answer] }

function preloader(first: FirstScreen | null) {
  const fake = fakeFetch(json({ data: { tenantConfig: { tenant: 'asked' } } }), json({ data: { tenantConfig: { tenant: 'again' } } }))
  const client = createGraphqlClient({ refresher: { refresh: async () => false }, fetch: fake.fetch })
  return { preload: screenDataPreloader(client, session, first), client, calls: fake.calls }
}

const request = () => new Request('http://tushy.localhost/')

describe('the first screen that came with the page', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('answers the landing page query from the cache, with no request', async () => {
    const { preload, client, calls } = preloader(embedded)
    await preload(screen, {}, request())
    expect(calls).toHaveLength(0)
    expect(client.readQuery({ query: TenantConfigDocument })).toEqual({ tenantConfig: { tenant: 'embedded' } })
  })

  it('is used once: the next page asks the network', async () => {
    const { preload, client, calls } = preloader(embedded)
    await preload(screen, {}, request())
    client.cache.reset()
    await preload(screen, {}, request())
    expect(calls).toHaveLength(1)
  })

  it('is not used for another operation, nor for the same with other variables', async () => {
    const other = preloader({ answers: [{ ...answer, operation: 'HomePage' }] })
    await other.preload(screen, {}, request())
    expect(other.calls).toHaveLength(1)
    expect(other.client.readQuery({ query: TenantConfigDocument })).toEqual({ tenantConfig: { tenant: 'asked' } })
    const varied = preloader({ answers: [{ ...answer, variables: { shelfSize: 3 } }] })
    await varied.preload(screen, {}, request())
    expect(varied.calls).toHaveLength(1)
  })

  it("seeds the answers the page carries for the screen's parts, each for its own variables only", async () => {
    const favourite = { getVideo: { __typename: 'VideoDetail', video: { __typename: 'Video', uuid: 'v-1', isFavorite: true } } }
    const tokens = { getToken: { __typename: 'VideoTokens', p270: null, p360: null, p480: null, p480l: null, p720: null, p1080: null, p2160: null, hls: null } }
    const page: FirstScreen = {
      answers: [
        answer,
        { operation: 'VideoFavorite', variables: { videoSlug: 'a-video' }, data: favourite },
        { operation: 'VideoTokens', variables: { videoId: 'v-1' }, data: tokens },
      ],
    }
    const parts = withScreenQuery(() => null, () => ({ query: TenantConfigDocument, variables: {} }), { pageAnswers: [VideoFavoriteDocument] })
    const { preload, client, calls } = preloader(page)
    await preload(parts, {}, request())
    expect(calls).toHaveLength(0)
    expect(client.readQuery({ query: VideoFavoriteDocument, variables: { videoSlug: 'a-video' } })).toEqual(favourite)
    expect(client.readQuery({ query: VideoFavoriteDocument, variables: { videoSlug: 'another' } })).toBeNull()
    // A part the screen does not declare is not written.
    expect(client.readQuery({ query: VideoTokensDocument, variables: { videoId: 'v-1' } })).toBeNull()
    // Nor is any part when the screen's own answer is not the page's.
    const missed = preloader({ answers: [{ ...answer, operation: 'HomePage' }, page.answers[1]!] })
    await missed.preload(parts, {}, request())
    expect(missed.client.readQuery({ query: VideoFavoriteDocument, variables: { videoSlug: 'a-video' } })).toBeNull()
  })

  it('is read from its script element, and a missing or malformed one is none', () => {
    expect(readFirstScreen(document)).toBeNull()
    const script = document.createElement('script')
    script.type = 'application/json'
    script.id = FIRST_SCREEN_ELEMENT_ID
    script.textContent = JSON.stringify(embedded)
    document.body.appendChild(script)
    expect(readFirstScreen(document)).toEqual(embedded)
    for (const bad of ['{', '[]', '{"answers":{}}', '{"answers":[{"operation":1,"variables":{},"data":{}}]}', '{"answers":[{"operation":"X","variables":{}}]}']) {
      script.textContent = bad
      expect(readFirstScreen(document), bad).toBeNull()
    }
  })

  it('writes the shell answers, after the screen one, and says which are as fresh as the page', () => {
    const client = createGraphqlClient({ refresher: { refresh: async () => false }, fetch: fakeFetch().fetch })
    const shell: EmbeddedAnswer = { operation: 'TenantConfig', variables: {}, data: { tenantConfig: { tenant: 'shell' } } }
    const screenFirst: FirstScreen = { answers: [{ operation: 'HomePage', variables: {}, data: {} }, shell] }
    expect([...seedPageAnswers(client, screenFirst, [TenantConfigDocument])]).toEqual(['TenantConfig'])
    expect(client.readQuery({ query: TenantConfigDocument })).toEqual({ tenantConfig: { tenant: 'shell' } })
    // The screen's own answer is the screen seeder's, never the shell's; a document the shell does not name is left.
    expect([...seedPageAnswers(client, { answers: [shell] }, [TenantConfigDocument])]).toEqual([])
    expect([...seedPageAnswers(client, screenFirst, [])]).toEqual([])
    expect([...seedPageAnswers(client, null, [TenantConfigDocument])]).toEqual([])
  })

  it('compares variables by value, whatever order their keys were written in', () => {
    expect(canonicalJson({ b: 1, a: { d: null, c: [2, { f: 1, e: 0 }] } })).toBe(canonicalJson({ a: { c: [2, { e: 0, f: 1 }], d: null }, b: 1 }))
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }))
  })
})
