import { describe, expect, it } from 'vitest'
import { routeInput, tenantConfig } from '../../../app/routing/testing'
import { wallRule } from './rules'

const notFound = { kind: 'notFound' }
const allOn = tenantConfig({ features: { showAngels: true, showcasesPage: true, reels: true, curator: true } })

describe('/wall (curator)', () => {
  it('is not-found unless curator is on', () => {
    expect(wallRule(routeInput('/wall'))).toEqual(notFound)
    expect(wallRule(routeInput('/wall', { tenant: allOn }))).toMatchObject({ kind: 'page', screen: 'wall' })
  })
})
