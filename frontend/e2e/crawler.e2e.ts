// What a search engine's crawler reads (docs/decisions/gateway/sitemaps-built-at-edge-once-per.md): robots.txt, the
// sitemap index and every sitemap of two brands, each file checked with xmllint against the sitemaps.org schemas and
// Google's video extension (e2e/schemas), then the pages they list opened in Chromium with JavaScript off, as a
// crawler that runs none would read them: each is its own canonical and may be indexed. The members host shuts
// crawlers out. An unchanged file answers 304.
import { readFileSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { validateXML, type XMLFileInfo } from 'xmllint-wasm'
import { journeys } from './support/journey'
import { brandOrigin, crawlerGet } from './support/gateway'

let browser: Browser

journeys((opened) => {
  ;({ browser } = opened)
})

const schema = (name: string): XMLFileInfo => ({
  fileName: name,
  contents: readFileSync(new URL(`./schemas/${name}`, import.meta.url), 'utf8'),
})

/** Problems xmllint finds in `xml` against the index schema or the urlset one (protocol plus video extension). */
async function schemaErrors(xml: string, kind: 'index' | 'urlset'): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'sitemap.xml', contents: xml },
    schema: schema(kind === 'index' ? 'siteindex.xsd' : 'urlset.xsd'),
    preload: kind === 'index' ? [] : [schema('sitemap.xsd'), schema('sitemap-video.xsd')],
    maxMemoryPages: 16_384,
  })
  return result.errors.map((e) => e.rawMessage)
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'))

/** The page at `url` as a crawler that runs no JavaScript reads its head. */
async function readHead(url: string): Promise<{ title: string; canonical: string | null; robots: string | null }> {
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    const response = await page.goto(url)
    expect(response?.status(), url).toBe(200)
    return {
      title: await page.title(),
      canonical: await page.locator('link[rel="canonical"]').getAttribute('href'),
      robots: await page.locator('meta[name="robots"]').getAttribute('content'),
    }
  } finally {
    await context.close()
  }
}

describe('a crawler', () => {
  for (const brand of ['vixen', 'tushy']) {
    it(`reads ${brand}'s robots.txt and sitemaps, valid against their schemas, and every listed page is canonical`, async () => {
      const origin = brandOrigin(brand)
      const robots = await crawlerGet(`${origin}/robots.txt`)
      expect(robots.status).toBe(200)
      expect(robots.headers.rating).toBe('RTA-5042-1996-1400-1577-RTA')
      const lines = robots.body.split('\n')
      for (const rule of ['Disallow: /account', 'Disallow: /favorites', 'Disallow: /offers', 'Disallow: /_signup', 'Disallow: /oidc/', 'Disallow: /api/']) {
        expect(lines).toContain(rule)
      }
      const sitemapLine = lines.find((l) => l.startsWith('Sitemap: '))
      expect(sitemapLine).toBe(`Sitemap: ${origin}/sitemap.xml`)

      const index = await crawlerGet(`${origin}/sitemap.xml`)
      expect(index.status).toBe(200)
      expect(await schemaErrors(index.body, 'index')).toEqual([])
      const files = locs(index.body)
      expect(files.some((f) => f.endsWith('/sitemaps/videos-1.xml'))).toBe(true)
      for (const file of files) {
        expect(file.startsWith(`${origin}/sitemaps/`), file).toBe(true)
        const got = await crawlerGet(file)
        expect(got.status, file).toBe(200)
        expect(await schemaErrors(got.body, 'urlset'), file).toEqual([])
        const urls = locs(got.body)
        expect(urls.length, file).toBeGreaterThan(0)
        expect(urls.length, file).toBeLessThanOrEqual(50_000)
        // The first and the last page each file lists, as a crawler without JavaScript reads them.
        for (const url of new Set([urls[0]!, urls.at(-1)!])) {
          const head = await readHead(url)
          expect(head.canonical, url).toBe(url)
          expect(head.robots, url).toMatch(/^index, follow/)
          expect(head.title, url).not.toBe('paysite')
        }
        // Asked again with what it answered: unchanged, 304.
        const again = await crawlerGet(file, { 'if-none-match': String(got.headers.etag) })
        expect(again.status, file).toBe(304)
      }
    })
  }

  it('is shut out of the members host, which has no sitemaps', async () => {
    const members = brandOrigin('members')
    const robots = await crawlerGet(`${members}/robots.txt`)
    expect(robots.status).toBe(200)
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n')
    expect((await crawlerGet(`${members}/sitemap.xml`)).status).toBe(404)
    const page = await crawlerGet(`${members}/joinnow?brand=tushy`)
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"')
  })
})
