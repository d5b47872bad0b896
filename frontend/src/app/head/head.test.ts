import { describe, expect, it } from 'vitest'
import conformance from '../../../../config/head-conformance.json'
import headCopy from '../../../../config/head.json'
import { ROUTE_ROWS } from '../routing/table'
import { applyHead, canonicalUrl, clip, DESCRIPTION_MAX, pageHead, rowOf } from './head'

interface Case {
  row: string
  site: string
  status: 200 | 404 | 500
  members: boolean
  brand?: string
  shown?: { name: string; description?: string }
  title: string
  description: string
  robots: string
}

describe("the browser's head reads config/head.json as the edge does", () => {
  it.each((conformance.cases as Case[]).map((c) => [`${c.row} ${c.status} ${c.site}${c.members ? ' members' : ''}`, c]))(
    'conformance: %s',
    (_, c) => {
      const head = pageHead({ row: c.row, site: c.site, status: c.status, isMembersArea: c.members, shown: c.shown, brand: c.brand })
      expect(head).toEqual({ title: c.title, description: c.description, robots: c.robots })
    },
  )

  it('has copy for every row of the route table', () => {
    const pages = Object.keys((headCopy as { pages: Record<string, unknown> }).pages).sort()
    expect(pages).toEqual(ROUTE_ROWS.map((r) => r.path).sort())
  })

  it('matches paths to rows as the router does', () => {
    expect(rowOf('/videos/golden-hour')).toBe('/videos/:slug')
    expect(rowOf('/channels/all-videos')).toBe('/channels/all-videos')
    expect(rowOf('/channels/some-channel')).toBe('/channels/:channelSlug')
    expect(rowOf('/quickies')).toBe('/quickies/:uuid?')
    expect(rowOf('/no/such/page')).toBe('*')
  })

  it('clips descriptions at a word', () => {
    const clipped = clip('word '.repeat(100))
    expect([...clipped].length).toBeLessThanOrEqual(DESCRIPTION_MAX)
    expect(clipped.endsWith('word…')).toBe(true)
  })

  it('writes the head into the document once, updating what is there', () => {
    const doc = document.implementation.createHTMLDocument('x')
    const head = { title: 'Videos – TUSHY', description: 'Every video.', robots: 'noindex' }
    applyHead(doc, head, 'http://tushy.localhost:8080/videos')
    applyHead(doc, { ...head, title: 'Models – TUSHY' }, 'http://tushy.localhost:8080/performers')
    expect(doc.title).toBe('Models – TUSHY')
    expect(doc.querySelectorAll('meta[name="description"]')).toHaveLength(1)
    expect(doc.querySelector<HTMLMetaElement>('meta[name="robots"]')?.content).toBe('noindex')
    expect(doc.querySelector<HTMLMetaElement>('meta[property="og:title"]')?.content).toBe('Models – TUSHY')
    expect(doc.querySelectorAll('link[rel="canonical"]')).toHaveLength(1)
    expect(doc.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href).toBe('http://tushy.localhost:8080/performers')
  })

  it('puts the canonical URL on the brand origin, with a listing page past the first', () => {
    expect(canonicalUrl('http://vixen.localhost:8080/', '/videos/', '?page=2&sort=x')).toBe('http://vixen.localhost:8080/videos?page=2')
    expect(canonicalUrl('http://vixen.localhost:8080', '/', '?page=1')).toBe('http://vixen.localhost:8080/')
    // A category's listing is a page of its own: its canonical keeps the category, as the edge's does.
    expect(canonicalUrl('http://vixen.localhost:8080', '/videos', '?page=3&categories=big-city&order=x')).toBe(
      'http://vixen.localhost:8080/videos?categories=big-city&page=3',
    )
    expect(canonicalUrl('http://vixen.localhost:8080', '/performers', '?categories=big-city')).toBe(
      'http://vixen.localhost:8080/performers',
    )
  })
})
