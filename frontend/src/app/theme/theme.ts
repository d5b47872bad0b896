// A brand's look from its tenant configuration, as CSS custom properties on the document root: every style sheet
// reads var(--color-accent) and friends, so one build serves ten brands.
import type { Theme } from '../routing'

export function themeVariables(theme: Theme): Record<string, string> {
  const { colors, typography } = theme
  return {
    '--color-background': colors.background,
    '--color-surface': colors.surface,
    '--color-text': colors.text,
    '--color-muted-text': colors.mutedText,
    '--color-accent': colors.accent,
    '--color-on-accent': colors.onAccent,
    '--font-wordmark': typography.wordmarkFont,
    '--font-heading': typography.headingFont,
    '--font-body': typography.bodyFont,
    '--wordmark-letter-spacing': typography.wordmarkLetterSpacing,
    '--heading-transform': typography.headingTransform,
  }
}

export function applyTheme(root: HTMLElement, theme: Theme): void {
  for (const [name, value] of Object.entries(themeVariables(theme))) root.style.setProperty(name, value)
  root.dataset.brand = theme.name
}

// The brand's icon and theme colour are in the head the edge writes (gateway/src/head.rs).
