import { describe, expect, it } from 'vitest'
import { routeInput, tenantConfig } from '../../../app/routing/testing'
import { showcaseRule, showcasesRule } from './rules'

const notFound = { kind: 'notFound' }
const allOn = tenantConfig({ features: { showAngels: true, showcasesPage: true, reels: true, curator: true } })

describe('/showcases and /showcase/{slug} (showcasesPage)', () => {
  it('/showcases is not-found unless showcasesPage is on', () => {
    expect(showcasesRule(routeInput('/showcases'))).toEqual(notFound)
    expect(showcasesRule(routeInput('/showcases', { tenant: allOn }))).toMatchObject({ screen: 'showcases' })
  })

  it('/showcase/{slug}: invalid slug or feature off is not-found', () => {
    expect(showcaseRule(routeInput('/showcase/s', { params: { slug: 's' } }))).toEqual(notFound)
    expect(showcaseRule(routeInput('/showcase/s_1', { params: { slug: 's_1' }, tenant: allOn }))).toEqual(notFound)
  })

  it('/showcase/{slug}: the showcase page', () => {
    expect(showcaseRule(routeInput('/showcase/s-1', { params: { slug: 's-1' }, tenant: allOn }))).toEqual({
      kind: 'page',
      screen: 'showcase',
      data: { slug: 's-1' },
    })
  })
})
