import { describe, expect, it } from 'vitest'
import { joinTracking } from './joinTracking'

describe('the join tracking values', () => {
  it('reads ref, elm, nats and the affiliate codes of a ujc landing', () => {
    const query = 'ref=video:red-dress&elm=video-player&nats=MC4xLjEuMS4wLjAuMC4wLjA&aff_code_single=AFF1&aff_code_multi=AFF2'
    expect(joinTracking(new URLSearchParams(query))).toEqual({
      ref: 'video:red-dress',
      elm: 'video-player',
      nats: 'MC4xLjEuMS4wLjAuMC4wLjA',
      affCodeSingle: 'AFF1',
      affCodeMulti: 'AFF2',
    })
  })

  it('drops missing values and anything that is not short plain text', () => {
    expect(joinTracking(new URLSearchParams(`ref=<script>&elm=${'x'.repeat(129)}`))).toEqual({
      ref: null,
      elm: null,
      nats: null,
      affCodeSingle: null,
      affCodeMulti: null,
    })
  })
})
