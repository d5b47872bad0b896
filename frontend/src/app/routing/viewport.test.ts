import { describe, expect, it } from 'vitest'
import { upgradeBackgroundImage, viewportTypeForWidth } from './viewport'

describe('viewport type by width', () => {
  it.each([
    [320, 'xsmall'],
    [360, 'xsmall'],
    [361, 'small'],
    [480, 'small'],
    [481, 'medium'],
    [768, 'medium'],
    [769, 'large'],
    [1024, 'large'],
    [1025, 'xlarge'],
    [1285, 'xlarge'],
    [1286, 'huge'],
    [1920, 'huge'],
    [1921, 'boundary'],
  ] as const)('%ipx is %s', (width, type) => {
    expect(viewportTypeForWidth(width)).toBe(type)
  })
})

describe('upgrade-page background image', () => {
  it.each(['boundary', 'huge', 'xlarge', 'large'] as const)('is the large 1400x1024 image for %s', (viewport) => {
    expect(upgradeBackgroundImage(viewport)).toEqual({ size: 'large', width: 1400, height: 1024 })
  })

  it('is the medium 1045x1024 image for medium', () => {
    expect(upgradeBackgroundImage('medium')).toEqual({ size: 'medium', width: 1045, height: 1024 })
  })

  it.each(['small', 'xsmall'] as const)('is the small 320x770 image for %s', (viewport) => {
    expect(upgradeBackgroundImage(viewport)).toEqual({ size: 'small', width: 320, height: 770 })
  })
})
