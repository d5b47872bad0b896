import { describe, expect, it } from 'vitest'
import { defaultSource, isVideoFile, playableSources } from './player'

const token = (url: string) => ({ url })

describe('the player sources', () => {
  it('lists the qualities the tokens allow, best first, skipping missing ones', () => {
    const sources = playableSources({ p360: token('/m/360.mp4'), p1080: token('/m/1080.mp4'), p720: null, hls: token('/m/x.m3u8') } as never)
    expect(sources.map((source) => source.quality)).toEqual(['p1080', 'p360'])
    expect(sources[0]).toEqual({ quality: 'p1080', label: '1080p', url: '/m/1080.mp4' })
  })

  it('has nothing to play without tokens', () => {
    expect(playableSources(null)).toEqual([])
    expect(defaultSource([], true)).toBeUndefined()
  })

  it('starts phones at mobile 480p and desktops at 1080p', () => {
    const sources = playableSources({ p480l: token('a'), p480: token('b'), p1080: token('c'), p2160: token('d') })
    expect(defaultSource(sources, true)?.quality).toBe('p480l')
    expect(defaultSource(sources, false)?.quality).toBe('p1080')
  })

  it('falls back to the best there is', () => {
    const sources = playableSources({ p270: token('a'), p2160: token('b') })
    expect(defaultSource(sources, true)?.quality).toBe('p270')
    expect(defaultSource(sources, false)?.quality).toBe('p2160')
  })

  it('tells video files (full videos, trailers) from the animated placeholder clips', () => {
    expect(isVideoFile('/media/videos/x/p720.mp4?token=t')).toBe(true)
    expect(isVideoFile('/media/trailers/golden-hour.mp4')).toBe(true)
    expect(isVideoFile('/media/placeholder/reel-clip/x.svg?w=1280&clip=1')).toBe(false)
  })
})
