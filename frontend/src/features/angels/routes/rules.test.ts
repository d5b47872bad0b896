import { describe, expect, it } from 'vitest'
import { routeInput, tenantConfig } from '../../../app/routing/testing'
import { angelRule, angelsRule } from './rules'

const notFound = { kind: 'notFound' }
const allOn = tenantConfig({ features: { showAngels: true, showcasesPage: true, reels: true, curator: true } })

describe('/angels and /angels/:slug (showAngels)', () => {
  it('/angels is not-found unless showAngels is on', () => {
    expect(angelsRule(routeInput('/angels'))).toEqual(notFound)
    expect(angelsRule(routeInput('/angels', { tenant: allOn }))).toMatchObject({ kind: 'page', screen: 'angels' })
  })

  it('/angels/:slug: feature off is not-found', () => {
    expect(angelRule(routeInput('/angels/a', { params: { slug: 'a' } }))).toEqual(notFound)
  })

  it('/angels/:slug: invalid slug is not-found', () => {
    expect(angelRule(routeInput('/angels/A', { params: { slug: 'A' }, tenant: allOn }))).toEqual(notFound)
  })

  it('/angels/:slug: the angel profile page, page id angel:{slug}', () => {
    expect(angelRule(routeInput('/angels/a', { params: { slug: 'a' }, tenant: allOn }))).toEqual({
      kind: 'page',
      screen: 'angel',
      pageId: 'angel:a',
      data: { slug: 'a' },
    })
  })
})
