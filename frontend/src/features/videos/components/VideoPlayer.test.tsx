import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Trailer } from './VideoPlayer'

afterEach(cleanup)

const video = (src: string) => ({
  uuid: 'v-1',
  title: 'Golden Hour',
  trailer: { src, poster: '/media/placeholder/video/golden-hour.svg?w=1280&h=720' },
})

describe('the trailer', () => {
  it('plays its clip (§6: a visitor plays the trailer when it is not denied)', () => {
    const { container } = render(<Trailer video={video('/media/trailers/golden-hour.mp4')} autoPlay />)
    const player = container.querySelector('video')
    expect(player?.getAttribute('src')).toBe('/media/trailers/golden-hour.mp4')
    expect(player?.hasAttribute('controls')).toBe(true)
    expect(player?.getAttribute('poster')).toContain('/media/placeholder/video/golden-hour.svg')
  })

  it('shows the poster and says so when the trailer is denied (no src)', () => {
    const { container } = render(<Trailer video={video('')} />)
    expect(container.querySelector('video')).toBeNull()
    expect(screen.getByRole('img', { name: 'Golden Hour' }).getAttribute('src')).toContain('golden-hour.svg')
    expect(screen.getByText('The trailer is not available here.')).toBeTruthy()
  })
})
