// The affiliate campaign a join or upgrade link carries (product.md, "Analytics and affiliates"): the campaign source
// placeholder {src} followed by the suffix of the place the link sits in. {src} is the brand's abbreviation (vxn,
// tsh, …), so the members host can tell which brand's header, shelf or bar a join came from (docs/decisions/).

export const CAMPAIGN_SOURCE_PLACEHOLDER = '{src}'

/** Where a join or upgrade link sits. Header and the two home shelves have a mobile suffix of their own. */
export type CampaignPlacement =
  | 'upgrade'
  | 'pornPortalBar'
  | 'interstitialPornPortalBar'
  | 'header'
  | 'grid'
  | 'shelf1'
  | 'shelf2'
  | 'model'
  | 'modelName'
  | 'homeBanner'
  | 'topBanner'

/** The suffixes of product.md, "Analytics and affiliates", each for one placement (and a viewport where it has a mobile one). */
const SUFFIXES: Readonly<Record<CampaignPlacement, { desktop: string; mobile: string }>> = {
  upgrade: { desktop: '-upgrade', mobile: '-upgrade' },
  pornPortalBar: { desktop: '-pp-bar', mobile: '-pp-bar' },
  interstitialPornPortalBar: { desktop: '-int-pp-bar', mobile: '-int-pp-bar' },
  header: { desktop: '-hdr', mobile: '-mbhdr' },
  grid: { desktop: '-grid', mobile: '-grid' },
  shelf1: { desktop: '-shelf1', mobile: '-mbshelf1' },
  shelf2: { desktop: '-shelf2', mobile: '-mbshelf2' },
  model: { desktop: '-model', mobile: '-model' },
  modelName: { desktop: '-model-name', mobile: '-model-name' },
  homeBanner: { desktop: '-home-banner', mobile: '-home-banner' },
  topBanner: { desktop: '-top-banner', mobile: '-top-banner' },
}

/** Every suffix of product.md, "Analytics and affiliates", in the spec's order. */
export const CAMPAIGN_SUFFIXES: readonly string[] = [
  '-upgrade',
  '-pp-bar',
  '-int-pp-bar',
  '-hdr',
  '-mbhdr',
  '-grid',
  '-shelf1',
  '-mbshelf1',
  '-shelf2',
  '-mbshelf2',
  '-model',
  '-model-name',
  '-home-banner',
  '-top-banner',
]

export function campaignSuffix(placement: CampaignPlacement, mobile = false): string {
  const suffixes = SUFFIXES[placement]
  return mobile ? suffixes.mobile : suffixes.desktop
}

/** The campaign template of a placement, e.g. '{src}-mbhdr'. */
export function campaignTemplate(placement: CampaignPlacement, mobile = false): string {
  return `${CAMPAIGN_SOURCE_PLACEHOLDER}${campaignSuffix(placement, mobile)}`
}

/** The campaign source: the brand's abbreviation, or its key when the configuration has none. */
export function campaignSource(tenant: { tenant: string; abbreviation?: string }): string {
  const abbreviation = tenant.abbreviation?.trim()
  return abbreviation ? abbreviation : tenant.tenant
}

/** The campaign a link carries: the template with {src} filled in, e.g. 'vxn-mbhdr'. */
export function campaignFor(source: string, placement: CampaignPlacement, mobile = false): string {
  return campaignTemplate(placement, mobile).replace(CAMPAIGN_SOURCE_PLACEHOLDER, source)
}
