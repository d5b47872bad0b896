import { describe, expect, it } from 'vitest'
import { tenantConfig } from '../routing/testing'
import { applyFavicon, applyTheme, brandFavicon, themeVariables } from './theme'

describe('brand themes through CSS variables', () => {
  const { theme } = tenantConfig()

  it('maps every colour and type setting to a variable', () => {
    expect(themeVariables(theme)).toEqual({
      '--color-background': '#ffffff',
      '--color-surface': '#f4f4f5',
      '--color-text': '#111827',
      '--color-muted-text': '#6b7280',
      '--color-accent': '#0f766e',
      '--color-on-accent': '#ffffff',
      '--color-control-border': '#6b7280',
      '--color-error': '#b91c1c',
      '--font-wordmark': 'Georgia, serif',
      '--font-heading': 'Georgia, serif',
      '--font-body': 'system-ui, sans-serif',
      '--wordmark-letter-spacing': '0.3em',
      '--heading-transform': 'uppercase',
    })
  })

  it('gives dark brands a light error colour and light brands a dark one', () => {
    expect(themeVariables({ ...theme, colors: { ...theme.colors, surface: '#171717' } })['--color-error']).toBe('#fca5a5')
    expect(themeVariables({ ...theme, colors: { ...theme.colors, surface: '#fff7ed' } })['--color-error']).toBe('#b91c1c')
  })

  it('sets them on the root element with the brand name', () => {
    const root = document.createElement('html')
    applyTheme(root, theme)
    expect(root.style.getPropertyValue('--color-accent')).toBe('#0f766e')
    expect(root.dataset.brand).toBe('tushy')
  })

  it("gives each brand its icon: the wordmark's first letter in its colours", () => {
    const svg = decodeURIComponent(brandFavicon(theme).replace('data:image/svg+xml,', ''))
    expect(svg).toContain('fill="#0f766e"')
    expect(svg).toContain('fill="#ffffff">T</text>')
    const other = decodeURIComponent(
      brandFavicon({ ...theme, wordmark: 'vixen', colors: { ...theme.colors, accent: '#000' } }).replace('data:image/svg+xml,', ''),
    )
    expect(other).toContain('fill="#000"')
    expect(other).toContain('>V</text>')
  })

  it('escapes what it puts into the icon', () => {
    const svg = decodeURIComponent(brandFavicon({ ...theme, wordmark: '<b' }).replace('data:image/svg+xml,', ''))
    expect(svg).toContain('>&lt;</text>')
  })

  it("replaces the page's neutral icon link with the brand's", () => {
    const doc = document.implementation.createHTMLDocument('page')
    const link = doc.createElement('link')
    link.rel = 'icon'
    link.href = '/assets/favicon.svg'
    doc.head.appendChild(link)
    applyFavicon(doc, theme)
    const links = doc.querySelectorAll('link[rel="icon"]')
    expect(links).toHaveLength(1)
    expect((links[0] as HTMLLinkElement).href).toBe(brandFavicon(theme))
  })
})
