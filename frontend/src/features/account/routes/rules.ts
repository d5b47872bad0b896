// Account routes (rows: ./rows.json).
import { guarded, page, type RouteOutcome, VISIBLE_BRANDS } from '../../../app/routing'

/** Visible brands as upper-case ".COM" names joined with commas and "&": "A.COM, B.COM & C.COM". */
export function formatBrandNames(brands: readonly string[]): string {
  const names = brands.map((brand) => `${brand.toUpperCase()}.COM`)
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`
}

/** /account: password_changed names the brands the changed password works on. */
export const accountRule = guarded(
  '/account',
  ({ query }): RouteOutcome<{ passwordChangedBrands: string | null }> =>
    page('account', { passwordChangedBrands: query.has('password_changed') ? formatBrandNames(VISIBLE_BRANDS) : null }),
)
