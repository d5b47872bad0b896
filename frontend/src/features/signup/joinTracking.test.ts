import { describe, expect, it } from 'vitest'
import { joinTracking } from './joinTracking'

describe('the join tracking values', () => {
  it('reads ref, elm and nats', () => {
    expect(joinTracking(new URLSearchParams('ref=video:red-dress&elm=video-player&nats=MC4xLjEuMS4wLjAuMC4wLjA'))).toEqual({
      ref: 'video:red-dress',
      elm: 'video-player',
      nats: 'MC4xLjEuMS4wLjAuMC4wLjA',
    })
  })

  it('drops missing values and anything that is not short plain text', () => {
    expect(joinTracking(new URLSearchParams(`ref=<script>&elm=${'x'.repeat(129)}`))).toEqual({ ref: null, elm: null, nats: null })
  })
})
