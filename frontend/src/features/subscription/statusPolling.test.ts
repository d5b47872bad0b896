import { describe, expect, it } from 'vitest'
import { nextPollStep, POLL_MAX_TRIES, withFatr } from './statusPolling'

describe('subscription status polling', () => {
  it('reloads with fatr as soon as the membership is active', () => {
    expect(nextPollStep({ combinedBrand: false, active: true, counter: 3 })).toEqual({ kind: 'reload', afterMs: 0 })
  })

  it('waits 15 s between tries and gives up after 40', () => {
    let counter = 0
    const delays: number[] = []
    for (;;) {
      const step = nextPollStep({ combinedBrand: false, active: false, counter })
      if (step.kind !== 'retry') {
        expect(step).toEqual({ kind: 'failed', error: 'POLLING_MAX_RETRY' })
        break
      }
      delays.push(step.afterMs)
      counter = step.counter
    }
    expect(delays.length + 1).toBe(POLL_MAX_TRIES)
    expect(new Set(delays)).toEqual(new Set([15_000]))
  })

  it('reloads vixenplus after 10 s whatever the answer', () => {
    expect(nextPollStep({ combinedBrand: true, active: false, counter: 0 })).toEqual({ kind: 'reload', afterMs: 10_000 })
  })

  it('reloads the same page with fatr=true', () => {
    expect(withFatr('http://tushy.localhost/videos?page=2')).toBe('http://tushy.localhost/videos?page=2&fatr=true')
  })

  it('reloads without the query that opened the status actions, so they run once (no reload loop)', () => {
    expect(withFatr('http://tushy.localhost/?from=joinnow')).toBe('http://tushy.localhost/?fatr=true')
    expect(withFatr('http://tushy.localhost/?reactivation=success&fatr=true&x=1')).toBe('http://tushy.localhost/?fatr=true&x=1')
  })
})
