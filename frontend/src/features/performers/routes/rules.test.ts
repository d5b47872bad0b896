import { describe, expect, it } from 'vitest'
import { routeInput, tenantConfig } from '../../../app/routing/testing'
import { modelMove, modelsMove, performerRule, performersRule } from './rules'

const faceted = tenantConfig({ features: { facetedSearch: true } })
const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }
const moved = (location: string) => ({ kind: 'redirect', status: 301, location })

describe('/performers', () => {
  it('defaults: order rating, page 1, gender girls', () => {
    expect(performersRule(routeInput('/performers'))).toEqual({
      kind: 'page',
      screen: 'models',
      data: { order: 'rating', page: 1, gender: 'girls', sex: null },
    })
  })

  it('a page below 1 or non-numeric redirects keeping only non-default order and gender', () => {
    expect(performersRule(routeInput('/performers?page=0&order=name&gender=girls&x=1'))).toEqual(
      redirectTo('/performers?order=name'),
    )
    expect(performersRule(routeInput('/performers?page=abc&order=rating&gender=guys'))).toEqual(
      redirectTo('/performers?gender=guys'),
    )
    expect(performersRule(routeInput('/performers?page=-1'))).toEqual(redirectTo('/performers'))
  })

  it('with faceted search on and an empty query, redirects adding sex=F', () => {
    expect(performersRule(routeInput('/performers', { tenant: faceted }))).toEqual(redirectTo('/performers?sex=F'))
  })

  it('with faceted search on and a query lacking sex, redirects adding sex=F', () => {
    expect(performersRule(routeInput('/performers?order=name', { tenant: faceted }))).toEqual(
      redirectTo('/performers?order=name&sex=F'),
    )
  })

  it('with faceted search on and sex present, shows the list', () => {
    expect(performersRule(routeInput('/performers?sex=M', { tenant: faceted }))).toMatchObject({
      kind: 'page',
      data: { sex: 'M' },
    })
  })
})

describe('/performers/{slug}', () => {
  it('invalid slug goes to not-found', () => {
    expect(performerRule(routeInput('/performers/Jane', { params: { slug: 'Jane' } }))).toEqual(notFound)
  })

  it('a page below 1 or non-numeric redirects with an empty query', () => {
    expect(performerRule(routeInput('/performers/jane?page=0&tab=videos', { params: { slug: 'jane' } }))).toEqual(
      redirectTo('/performers/jane'),
    )
  })

  it('shows the performer with page id performer:{slug}', () => {
    expect(performerRule(routeInput('/performers/jane?page=2', { params: { slug: 'jane' } }))).toEqual({
      kind: 'page',
      screen: 'model',
      pageId: 'performer:jane',
      data: { slug: 'jane', page: 2 },
    })
  })
})

describe('permanent moves', () => {
  it('/models: 301 to the performers list, keeping the query', () => {
    expect(modelsMove(routeInput('/models?order=name&page=2'))).toEqual(moved('/performers?order=name&page=2'))
    expect(modelsMove(routeInput('/models'))).toEqual(moved('/performers'))
  })

  it('/models/{slug}: invalid slug goes to not-found', () => {
    expect(modelMove(routeInput('/models/Jane', { params: { slug: 'Jane' } }))).toEqual(notFound)
  })

  it('/models/{slug}: otherwise 301 to /performers/{slug}', () => {
    expect(modelMove(routeInput('/models/jane-doe', { params: { slug: 'jane-doe' } }))).toEqual(moved('/performers/jane-doe'))
  })
})
