import { describe, expect, it } from 'vitest'
import { campaignFor, campaignSource, campaignSuffix, campaignTemplate, CAMPAIGN_SUFFIXES, type CampaignPlacement } from './campaign'
import { joinUrl } from './access'

const PLACEMENTS: CampaignPlacement[] = [
  'upgrade',
  'pornPortalBar',
  'interstitialPornPortalBar',
  'header',
  'grid',
  'shelf1',
  'shelf2',
  'model',
  'modelName',
  'homeBanner',
  'topBanner',
]

describe('the affiliate campaign suffixes', () => {
  it.each([
    ['upgrade', '-upgrade', '-upgrade'],
    ['pornPortalBar', '-pp-bar', '-pp-bar'],
    ['interstitialPornPortalBar', '-int-pp-bar', '-int-pp-bar'],
    ['header', '-hdr', '-mbhdr'],
    ['grid', '-grid', '-grid'],
    ['shelf1', '-shelf1', '-mbshelf1'],
    ['shelf2', '-shelf2', '-mbshelf2'],
    ['model', '-model', '-model'],
    ['modelName', '-model-name', '-model-name'],
    ['homeBanner', '-home-banner', '-home-banner'],
    ['topBanner', '-top-banner', '-top-banner'],
  ] as const)('%s links carry %s on a wide screen and %s on a phone', (placement, desktop, mobile) => {
    expect(campaignSuffix(placement)).toBe(desktop)
    expect(campaignSuffix(placement, true)).toBe(mobile)
  })

  it('uses every suffix of the spec, and only those', () => {
    const used = new Set(PLACEMENTS.flatMap((placement) => [campaignSuffix(placement), campaignSuffix(placement, true)]))
    expect([...used].sort()).toEqual([...CAMPAIGN_SUFFIXES].sort())
    expect(CAMPAIGN_SUFFIXES).toHaveLength(14)
  })

  it('puts the suffix after the {src} placeholder, and fills it with the brand abbreviation', () => {
    expect(campaignTemplate('header', true)).toBe('{src}-mbhdr')
    expect(campaignFor('vxn', 'header')).toBe('vxn-hdr')
    expect(campaignFor('tsh', 'shelf2', true)).toBe('tsh-mbshelf2')
    expect(campaignFor('blk', 'modelName')).toBe('blk-model-name')
  })

  it('takes the abbreviation as the source, the brand key without one', () => {
    expect(campaignSource({ tenant: 'vixen', abbreviation: 'vxn' })).toBe('vxn')
    expect(campaignSource({ tenant: 'vixen', abbreviation: ' ' })).toBe('vixen')
    expect(campaignSource({ tenant: 'vixen' })).toBe('vixen')
  })

  it('rides on the join link beside ref, elm and nats', () => {
    const tushy = { membersUrl: 'https://members.tushy.com', tenant: 'tushy' }
    expect(joinUrl(tushy, { ref: 'home', elm: 'header', campaign: campaignFor('tsh', 'header') })).toBe(
      'https://members.tushy.com/joinnow?brand=tushy&ref=home&elm=header&campaign=tsh-hdr',
    )
    expect(joinUrl(tushy, { ref: 'home' })).toBe('https://members.tushy.com/joinnow?brand=tushy&ref=home')
  })
})
