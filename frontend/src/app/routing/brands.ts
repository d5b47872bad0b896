// The brands, from config/tenants at build time (one file per brand, named by its brand key; members-area.json is
// the members area, not a brand): no brand key is written in the front end's code.
const TENANT_FILE = /\/([^/]+)\.json$/

const standaloneSitesByFile = import.meta.glob<readonly string[]>(
  ['../../../../config/tenants/*.json', '!../../../../config/tenants/members-area.json'],
  { eager: true, import: 'standaloneSites' },
)

/** Every brand key, the hidden combined brand included: the brands a cross-site link may name. */
export const BRANDS: readonly string[] = Object.keys(standaloneSitesByFile).map((file) => TENANT_FILE.exec(file)![1]!)

/**
 * The visible brands: the standalone sites the tenants list, in their order (the combined brand is hidden from
 * every listing, so no tenant lists it).
 */
export const VISIBLE_BRANDS: readonly string[] = [...new Set(Object.values(standaloneSitesByFile).flat())]
