// The legal and support pages: plain page loads (rows: ./rows.json).
import { page, type RouteOutcome } from '../../../app/routing'

export type LegalContent = 'casting' | 'terms' | 'privacy' | 'compliance' | 'support'

/** /casting, /terms, /privacy: plain page loads. */
export const castingRule = (): RouteOutcome<{ content: LegalContent }> => page('casting', { content: 'casting' })
export const termsRule = (): RouteOutcome<{ content: LegalContent }> => page('terms', { content: 'terms' })
export const privacyRule = (): RouteOutcome<{ content: LegalContent }> => page('privacy', { content: 'privacy' })
/** /safety loads the same content as privacy. */
export const safetyRule = (): RouteOutcome<{ content: LegalContent }> => page('safety', { content: 'privacy' })
/** /removal preloads the privacy page. */
export const removalRule = (): RouteOutcome<{ content: LegalContent }> => page('removal', { content: 'privacy' })
/** /support (linked from the footer on the members host, and from payment and signup failures): a plain page load. */
export const supportRule = (): RouteOutcome<{ content: LegalContent }> => page('support', { content: 'support' })
/** /2257 preloads the compliance page. */
export const complianceRule = (): RouteOutcome<{ content: LegalContent }> =>
  page('compliance', { content: 'compliance' })
