// The join route's tracking values (product.md, "Sign-up and join"): ref (the page id the join started from), elm
// (the element), nats (the stored affiliate value), and the affiliate codes of a `ujc` landing the brand's join link
// carried (aff_code_single, aff_code_multi). Each is short text; anything else is dropped.

export interface JoinTracking {
  ref: string | null
  elm: string | null
  nats: string | null
  affCodeSingle: string | null
  affCodeMulti: string | null
}

const TRACKING_VALUE = /^[A-Za-z0-9_.:-]{1,128}$/

const read = (query: URLSearchParams, key: string) => {
  const value = query.get(key)
  return value !== null && TRACKING_VALUE.test(value) ? value : null
}

export function joinTracking(query: URLSearchParams): JoinTracking {
  return {
    ref: read(query, 'ref'),
    elm: read(query, 'elm'),
    nats: read(query, 'nats'),
    affCodeSingle: read(query, 'aff_code_single'),
    affCodeMulti: read(query, 'aff_code_multi'),
  }
}
