import { describe, expect, it } from 'vitest'
import { routeInput, tenantConfig } from '../../../app/routing/testing'
import { quickiesRule, reelsMove } from './rules'

const notFound = { kind: 'notFound' }
const allOn = tenantConfig({ features: { showAngels: true, showcasesPage: true, reels: true, curator: true } })
const moved = (location: string) => ({ kind: 'redirect', status: 301, location })

describe('/quickies/{uuid?} (reels)', () => {
  it('is not-found unless reels is on', () => {
    expect(quickiesRule(routeInput('/quickies'))).toEqual(notFound)
  })

  it('shows quickies, with or without a uuid', () => {
    expect(quickiesRule(routeInput('/quickies', { tenant: allOn }))).toEqual({
      kind: 'page',
      screen: 'quickies',
      data: { uuid: null },
    })
    expect(quickiesRule(routeInput('/quickies/u-1', { tenant: allOn, params: { uuid: 'u-1' } }))).toMatchObject({
      data: { uuid: 'u-1' },
    })
  })
})

describe('permanent moves', () => {
  it('/reels/{uuid?}: 301 to the quickies route', () => {
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'
    expect(reelsMove(routeInput(`/reels/${uuid}`, { params: { uuid } }))).toEqual(moved(`/quickies/${uuid}`))
    expect(reelsMove(routeInput('/reels'))).toEqual(moved('/quickies'))
  })
})
