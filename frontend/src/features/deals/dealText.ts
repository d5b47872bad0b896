// How a deal reads on its card (product.md, "Deals, offers and upsells"): the discount line from its parts, and where
// its button goes.

export interface DealTextFields {
  discount?: string | null
  discountPrefix?: string | null
  discountTextPostPrefix?: string | null
  discountLiteral?: string | null
}

/** "Save 50% off": the literal wins; otherwise prefix, discount and the text after it, whichever are present. */
export function discountLine(deal: DealTextFields): string | null {
  if (deal.discountLiteral?.trim()) return deal.discountLiteral.trim()
  const parts = [deal.discountPrefix, deal.discount, deal.discountTextPostPrefix].map((part) => part?.trim()).filter(Boolean)
  return deal.discount?.trim() ? parts.join(' ') : null
}

export interface DealAction {
  kind: 'link' | 'oneClick'
  href: string
}

/** A one-click deal with its consent props opens the consent modal; every other deal links to its partner. */
export function dealAction(deal: { url: string; oneClickEnabled: boolean; oneClickConsent?: { oneClickUrl: string } | null }): DealAction {
  if (deal.oneClickEnabled && deal.oneClickConsent?.oneClickUrl) return { kind: 'oneClick', href: deal.oneClickConsent.oneClickUrl }
  return { kind: 'link', href: deal.url }
}

/** Deals carousel limit and deals grid size (product.md, "Business constants and limits"). */
export const DEALS_CAROUSEL_LIMIT = 40
export const DEALS_GRID_SIZE = 15
