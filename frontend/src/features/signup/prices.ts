// How a join option's price reads (the join form, the reactivation modal): its first charge and what it rebills.

export interface PricedOption {
  price: string
  currency: string
  rebillPrice: string
  rebillPeriodDays: number
  trialDays?: number | null
}

export function money(amount: string, currency: string): string {
  return currency === 'USD' ? `$${amount}` : `${amount} ${currency}`
}

/** "$29.95 / 30 days", "$1.00 for 2 days, then $29.95 / 30 days", "9.95 EUR now, then 19.95 EUR / 30 days". */
export function optionPrice(option: PricedOption): string {
  const rebill = `${money(option.rebillPrice, option.currency)} / ${option.rebillPeriodDays} days`
  if (option.trialDays) return `${money(option.price, option.currency)} for ${option.trialDays} days, then ${rebill}`
  return option.price === option.rebillPrice ? rebill : `${money(option.price, option.currency)} now, then ${rebill}`
}

/** The options that reactivate one brand: its own member options, not trials nor the multisite packages. */
export function singleSiteOptions<T extends { site: string; kind: string }>(options: readonly T[], brand: string): T[] {
  return options.filter((option) => option.site === brand && option.kind === 'member')
}
