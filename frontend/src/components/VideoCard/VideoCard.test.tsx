import { cleanup, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { formatDuration, formatRating, formatReleaseDate, joinNames } from './format'
import { makeFragmentData } from '../../gql/fragment-masking'
import { Picture_ImageFragmentDoc, VideoCard_VideoFragmentDoc, type VideoCard_VideoFragment } from '../../gql/graphql'
import { VideoCard } from './VideoCard'
import { VideoGrid } from './VideoGrid'
import { Shelf } from '../Shelf/Shelf'

afterEach(cleanup)

const image = (name: string) =>
  makeFragmentData(
    {
      __typename: 'Image' as const,
      src: `/media/placeholder/listing/${name}.svg?w=640&h=360`,
      width: 640,
      height: 360,
      highdpi: { __typename: 'HighDpi' as const, double: `/media/${name}@2x.svg`, triple: `/media/${name}@3x.svg` },
    },
    Picture_ImageFragmentDoc,
  )

const performer = (name: string) => ({
  __typename: 'Performer' as const,
  id: name,
  slug: name.toLowerCase().replace(' ', '-'),
  name,
})

const video = (slug: string, overrides: Partial<VideoCard_VideoFragment> = {}) =>
  makeFragmentData(
    {
      __typename: 'Video' as const,
      uuid: `uuid-${slug}`,
      newId: `new-${slug}`,
      slug,
      title: `Title of ${slug}`,
      releaseDate: '2026-03-04T12:00:00Z',
      duration: 1925,
      rating: 8.46,
      isFreeLimitedTrial: false,
      freeForYourTrial: false,
      performers: [performer('Ava Stone'), performer('Mia Reed')],
      images: { __typename: 'VideoImages' as const, listing: { __typename: 'Image' as const, ...image(slug) } },
      ...overrides,
    },
    VideoCard_VideoFragmentDoc,
  )

function renderInRouter(element: React.ReactElement) {
  render(<RouterProvider router={createMemoryRouter([{ path: '/', element }])} />)
}

describe('how a card writes a video’s numbers', () => {
  it('writes durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(0)).toBe('0:00')
    expect(formatDuration(1925)).toBe('32:05')
    expect(formatDuration(3909)).toBe('1:05:09')
  })

  it('writes the rating with one decimal, and nothing when nobody rated', () => {
    expect(formatRating(8.46)).toBe('8.5')
    expect(formatRating(-1)).toBeNull()
  })

  it('writes release dates in UTC and names with commas and "&"', () => {
    expect(formatReleaseDate('2026-03-04T23:30:00Z')).toBe('Mar 4, 2026')
    expect(formatReleaseDate('not a date')).toBe('')
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B & C')
    expect(joinNames(['A'])).toBe('A')
  })

  it('writes a release date of every month as en-US Intl does, by the UTC day', () => {
    const intl = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })
    for (let month = 0; month < 12; month += 1) {
      for (const iso of [Date.UTC(2026, month, 1), Date.UTC(1999, month, 28, 23, 59), Date.UTC(2031, month, 9, 0, 0, 1)]) {
        const date = new Date(iso)
        expect(formatReleaseDate(date.toISOString())).toBe(intl.format(date))
      }
    }
  })
})

describe('the video card', () => {
  it("marks a video free for the user's trial only where the server says the trial may take it, not by its flag", () => {
    renderInRouter(
      <VideoGrid
        videos={[
          video('ours', { isFreeLimitedTrial: true, freeForYourTrial: true }),
          video('another-sites', { isFreeLimitedTrial: true, freeForYourTrial: false }),
          video('plain'),
        ]}
      />,
    )
    const marks = screen.getAllByText('Free for your trial')
    expect(marks).toHaveLength(1)
    expect(marks[0]!.closest('a')?.getAttribute('href')).toBe('/videos/ours')
  })

  it('is one link to the video page, titled by the video, with its numbers', () => {
    renderInRouter(<VideoCard video={video('red-dress')} />)
    const link = screen.getByRole('link')
    expect(link.getAttribute('href')).toBe('/videos/red-dress')
    expect(screen.getByRole('heading', { name: 'Title of red-dress' })).toBeTruthy()
    expect(screen.getByText('32:05')).toBeTruthy()
    expect(screen.getByText('Ava Stone & Mia Reed')).toBeTruthy()
    expect(screen.getByLabelText('Rating 8.5')).toBeTruthy()
  })

  it("titles its card one level under the heading it stands under: h2 in a listing, h3 in a shelf (heading-order)", () => {
    renderInRouter(
      <>
        <h1>Videos</h1>
        <VideoGrid videos={[video('in-listing')]} />
        <Shelf title="Related">
          <VideoGrid videos={[video('in-shelf')]} />
        </Shelf>
      </>,
    )
    expect(screen.getByRole('heading', { name: 'Title of in-listing' }).tagName).toBe('H2')
    expect(screen.getByRole('heading', { name: 'Related' }).tagName).toBe('H2')
    expect(screen.getByRole('heading', { name: 'Title of in-shelf' }).tagName).toBe('H3')
  })

  it('reserves the image box and offers the high-DPI images; only priority cards load eagerly', () => {
    renderInRouter(<VideoCard video={video('red-dress')} priority />)
    const img = document.querySelector('img')!
    expect(img.getAttribute('width')).toBe('640')
    expect(img.getAttribute('height')).toBe('360')
    expect(img.getAttribute('srcset')).toBe(
      '/media/placeholder/listing/red-dress.svg?w=640&h=360 1x, /media/red-dress@2x.svg 2x, /media/red-dress@3x.svg 3x',
    )
    expect(img.getAttribute('loading')).toBe('eager')
    cleanup()
    renderInRouter(<VideoCard video={video('blue-dress')} />)
    expect(document.querySelector('img')!.getAttribute('loading')).toBe('lazy')
  })

  it('leads where it is told, and says nothing of an unrated video’s rating', () => {
    renderInRouter(<VideoCard video={video('red-dress', { rating: -1 })} href="/channels/intimates/videos/red-dress" />)
    expect(screen.getByRole('link').getAttribute('href')).toBe('/channels/intimates/videos/red-dress')
    expect(screen.queryByLabelText(/^Rating/)).toBeNull()
  })
})

describe('the video grid', () => {
  it('lists a card per video, the first ones eager', () => {
    renderInRouter(<VideoGrid videos={[video('a'), video('b'), video('c')]} priorityCount={2} label="Videos" />)
    expect(screen.getByRole('list', { name: 'Videos' }).querySelectorAll('li')).toHaveLength(3)
    expect([...document.querySelectorAll('img')].map((img) => img.getAttribute('loading'))).toEqual(['eager', 'eager', 'lazy'])
  })

  it('shows its empty text instead of an empty list', () => {
    renderInRouter(<VideoGrid videos={[]} empty={<p>No videos match.</p>} />)
    expect(screen.getByText('No videos match.')).toBeTruthy()
    expect(screen.queryByRole('list')).toBeNull()
  })
})
