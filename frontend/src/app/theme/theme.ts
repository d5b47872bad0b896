// A brand's look from its tenant configuration, as CSS custom properties on the document root: every style sheet
// reads var(--color-accent) and friends, so one build serves ten brands.
import type { Theme } from '../routing'
import { contrastRatio, parseHex } from './contrast'

// An error's text for light and for dark backgrounds: the one that contrasts more with the brand's surface (where
// form errors show, in modals and account forms) is the brand's error colour.
const ERROR_ON_LIGHT = '#b91c1c'
const ERROR_ON_DARK = '#fca5a5'

function errorColor(surface: string): string {
  const on = parseHex(surface)
  return contrastRatio(parseHex(ERROR_ON_LIGHT), on) >= contrastRatio(parseHex(ERROR_ON_DARK), on) ? ERROR_ON_LIGHT : ERROR_ON_DARK
}

export function themeVariables(theme: Theme): Record<string, string> {
  const { colors, typography } = theme
  return {
    '--color-background': colors.background,
    '--color-surface': colors.surface,
    '--color-text': colors.text,
    '--color-muted-text': colors.mutedText,
    '--color-accent': colors.accent,
    '--color-on-accent': colors.onAccent,
    // Derived, so that a brand's six colours stay the whole theme: a control's border (a text field's outline) has to
    // stand out 3:1 against what is around it, which the muted text colour does by its own 4.5:1 rule.
    '--color-control-border': colors.mutedText,
    '--color-error': errorColor(colors.surface),
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
