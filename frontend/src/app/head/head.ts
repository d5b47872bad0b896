// Each page's head in the browser: the edge writes it into the HTML it sends (gateway/src/head.rs), and this keeps it
// current on client-side navigation, from the same copy (config/head.json) by route-table row. The edge also writes the
// structured data, the OpenGraph picture and the icon; those matter to crawlers and link previews, which read the HTML
// the edge sent, so the browser keeps the title, description, robots rule, canonical URL and OpenGraph text current.
// config/head-conformance.json holds this reader and the edge's to the same answers.
import { matchRoutes } from 'react-router'
import headCopy from '../../../../config/head.json'
import { ROUTE_ROWS } from '../routing/table'

interface PageCopy {
  title: string
  description: string
  index?: boolean
  /** Query keys that make another page of the row (a category's listing), kept in its canonical URL. */
  canonicalQuery?: string[]
}

const COPY = headCopy as unknown as {
  siteDescription: string
  notFound: PageCopy
  serverError: PageCopy
  pages: Record<string, PageCopy>
}

/** The longest meta description written (the edge's DESCRIPTION_MAX). */
export const DESCRIPTION_MAX = 160

/** What a page shows, as its head names it: a video's title and description, a performer's name. */
export interface Shown {
  name: string
  description?: string
}

export interface HeadInput {
  /** The route-table row (`/videos/:slug`), `*` outside the table. */
  row: string
  site: string
  status: 200 | 404 | 500
  isMembersArea: boolean
  shown?: Shown
  /** A sister site's name (/sites/:brand/:type). */
  brand?: string
}

export interface PageHead {
  title: string
  description: string
  robots: string
}

export function interpolate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{\s*([a-zA-Z]+)\s*\}\}/g, (_, name: string) => vars[name] ?? '')
}

/** At most DESCRIPTION_MAX characters with whitespace folded, cut at a word with an ellipsis. */
export function clip(text: string): string {
  const folded = text.split(/\s+/).filter(Boolean).join(' ')
  if ([...folded].length <= DESCRIPTION_MAX) return folded
  const cut = [...folded].slice(0, DESCRIPTION_MAX - 1).join('')
  const space = cut.lastIndexOf(' ')
  const atWord = space > DESCRIPTION_MAX / 2 ? space : cut.length
  return `${cut.slice(0, atWord).replace(/[ ,.;:]+$/, '')}…`
}

const needsSession = (row: string) =>
  ROUTE_ROWS.find((r) => r.path === row)?.steps.some((step) => step === 'authenticated') ?? false

/** The head of a page, as the edge writes it. */
export function pageHead({ row, site, status, isMembersArea, shown, brand }: HeadInput): PageHead {
  const page = COPY.pages[row]
  const copy = status === 404 ? COPY.notFound : status === 500 ? COPY.serverError : (page ?? COPY.notFound)
  const error = status !== 200
  const name = error ? '' : (shown?.name ?? '')
  const vars = { site, name, description: error ? '' : (shown?.description ?? ''), brand: (brand ?? '').toUpperCase() }
  const title = /\{\{\s*name\s*\}\}/.test(copy.title) && name === '' ? site : interpolate(copy.title, vars)
  const description = clip(interpolate(copy.description, vars)) || clip(interpolate(COPY.siteDescription, vars))
  const indexable = !error && !isMembersArea && row !== '*' && !needsSession(row) && page?.index !== false
  const robots = indexable ? 'index, follow, max-image-preview:large' : isMembersArea ? 'noindex, nofollow' : 'noindex'
  return { title, description, robots }
}

/** The row a path is a page of, as the router matches it. */
export function rowOf(pathname: string): string {
  const matches = matchRoutes(
    ROUTE_ROWS.filter((r) => r.path !== '*').map((r) => ({ path: r.path })),
    pathname,
  )
  return matches?.at(-1)?.route.path ?? '*'
}

function meta(document: Document, attribute: 'name' | 'property', key: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`)
  if (!element) {
    element = document.createElement('meta')
    element.setAttribute(attribute, key)
    document.head.appendChild(element)
  }
  element.content = content
}

/** Writes a page's head into the document, with its canonical URL on the brand's own origin. */
export function applyHead(document: Document, head: PageHead, canonical: string): void {
  document.title = head.title
  meta(document, 'name', 'description', head.description)
  meta(document, 'name', 'robots', head.robots)
  meta(document, 'property', 'og:title', head.title)
  meta(document, 'property', 'og:description', head.description)
  meta(document, 'property', 'og:url', canonical)
  meta(document, 'name', 'twitter:title', head.title)
  meta(document, 'name', 'twitter:description', head.description)
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')
  if (!link) {
    link = document.createElement('link')
    link.rel = 'canonical'
    document.head.appendChild(link)
  }
  link.href = canonical
}

/**
 * The canonical URL of a path on the brand's origin (the tenant's tour URL), as the edge writes it: the row's
 * `canonicalQuery` keys the query names (first non-empty value), then the listing's page past the first.
 */
export function canonicalUrl(tourUrl: string, pathname: string, search: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  const query = new URLSearchParams(search)
  const kept = new URLSearchParams()
  for (const key of COPY.pages[rowOf(path)]?.canonicalQuery ?? []) {
    const value = query.getAll(key).find((v) => v !== '')
    if (value !== undefined) kept.append(key, value)
  }
  const page = Number(query.get('page'))
  if (Number.isInteger(page) && page > 1) kept.append('page', String(page))
  const rest = kept.toString()
  return `${tourUrl.replace(/\/+$/, '')}${path}${rest ? `?${rest}` : ''}`
}
