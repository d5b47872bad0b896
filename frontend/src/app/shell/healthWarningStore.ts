// Acknowledged health warnings, per region. The profile's flags count for members; the browser's own record counts
// for visitors and until the acknowledgeHealthWarning mutation exists (docs/decisions/).
import type { HealthWarningRegion } from './autoModals'

const key = (region: HealthWarningRegion) => `paysite.healthWarning.${region}.acknowledged`

type Store = Pick<Storage, 'getItem' | 'setItem'>

function safeStorage(): Store | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

export function acknowledgedLocally(storage: Store | null = safeStorage()): Partial<Record<HealthWarningRegion, boolean>> {
  if (!storage) return {}
  return {
    'US-TX': storage.getItem(key('US-TX')) === '1',
    'US-AL': storage.getItem(key('US-AL')) === '1',
  }
}

export function acknowledgeLocally(region: HealthWarningRegion, storage: Store | null = safeStorage()): void {
  try {
    storage?.setItem(key(region), '1')
  } catch {
    // Storage full or blocked: the warning shows again on the next page load, which errs on the safe side.
  }
}
