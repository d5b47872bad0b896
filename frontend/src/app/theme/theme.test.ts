import { describe, expect, it } from 'vitest'
import { tenantConfig } from '../routing/testing'
import { applyTheme, themeVariables } from './theme'

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
})
