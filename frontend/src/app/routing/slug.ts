import { SLUG_MAX_LENGTH, SLUG_PATTERN } from './constants'

/** The general slug rule (spec README), the same for every slug kind. */
export function isValidSlug(slug: string | null | undefined): slug is string {
  return typeof slug === 'string' && slug.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(slug)
}
