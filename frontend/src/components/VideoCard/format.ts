// How lists show a video's numbers.

/** 1:05:09 or 32:05 from seconds. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds))
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = String(seconds % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`
}

/** The average rating with one decimal, or null when nobody rated (the catalog sends -1). */
export function formatRating(rating: number): string | null {
  return rating < 0 ? null : rating.toFixed(1)
}

// Written out rather than with Intl.DateTimeFormat: the first DateTimeFormat a page builds loads its locale data,
// 30-50 ms of main thread on a fast machine (4x that on Lighthouse's phone), in the task that shows the first cards
// (docs/benchmarks.md, 2026-11-28). The dates are always en-US, in UTC.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

/** 'Mar 4, 2026' from an ISO date-time (the UTC day, as en-US writes it). */
export function formatReleaseDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
}

/** 'A, B & C' */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`
}
