// @vitest-environment node
// WCAG 2.2 AA contrast for every brand: each text/background pair the style sheets paint, computed from the real
// tenant configurations (config/tenants) through themeVariables, the way the browser resolves the CSS. A second
// check reads the style sheets themselves, so a new colour declaration built from the theme has to be listed here
// (or exempted, with the reason) before it ships unchecked.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Theme } from '../routing'
import { contrastRatio, cssColor, layered, MINIMUM_CONTRAST, parseHex, type ContrastKind } from './contrast'
import { themeVariables } from './theme'

const here = dirname(fileURLToPath(import.meta.url))
const src = resolve(here, '../..')
const tenantsDir = resolve(src, '../../config/tenants')

const brands = readdirSync(tenantsDir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(join(tenantsDir, name), 'utf8')) as { tenant?: string; theme?: Theme })
  .filter((config): config is { tenant: string; theme: Theme } => config.theme !== undefined)

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? cssFiles(join(dir, entry.name)) : entry.name.endsWith('.css') ? [join(dir, entry.name)] : [],
  )
}
const sheets = cssFiles(src).map((file) => ({ file: file.slice(src.length + 1), text: readFileSync(file, 'utf8') }))

/** The values a style sheet gives a custom property (the comment authors' user type and badge colours). */
function customValues(property: string): string[] {
  const values = sheets.flatMap(({ text }) =>
    [...text.matchAll(new RegExp(`${property}:\\s*([^;]+);`, 'g'))].map((match) => match[1]!.trim()),
  )
  return [...new Set(values)]
}

const BG = 'var(--color-background)'
const SURFACE = 'var(--color-surface)'
const TINT = 'color-mix(in srgb, var(--color-text) 8%, transparent)'
const PLAIN_BACKDROPS = [[BG], [SURFACE]]

interface Pair {
  /** Where the CSS paints it. */
  where: string
  kind: ContrastKind
  /** The foreground's value, as written in the style sheet. */
  fg: string
  /** What is under it, bottom layer first, as written in the style sheets. */
  on: string[][]
  /** Custom properties an element sets for itself (`--user-type-color`), and currentColor. */
  locals?: Record<string, string>
}

const userTypeColors = customValues('--user-type-color')
const badgeColors = customValues('--badge-color')

const PAIRS: Pair[] = [
  { where: 'body text (html, cards, modals)', kind: 'text', fg: 'var(--color-text)', on: PLAIN_BACKDROPS },
  { where: 'html before the theme loads', kind: 'text', fg: 'var(--color-text, #111)', on: [['var(--color-background, #fff)']] },
  { where: '.muted, .video-card__meta, .join__option-price', kind: 'text', fg: 'var(--color-muted-text)', on: PLAIN_BACKDROPS },
  { where: '.gems-facts dt', kind: 'text', fg: 'var(--color-muted-text, #888)', on: PLAIN_BACKDROPS },
  {
    where: 'accent text: ratings, pinned, awards, shelf links, deal discounts',
    kind: 'text',
    fg: 'var(--color-accent)',
    on: PLAIN_BACKDROPS,
  },
  { where: '.gem', kind: 'text', fg: 'var(--color-accent, #c9a)', on: PLAIN_BACKDROPS },
  { where: 'a pressed comment vote', kind: 'text', fg: 'var(--color-accent)', on: [[BG, TINT]] },
  {
    where: 'accent buttons, join link, badges, current page',
    kind: 'text',
    fg: 'var(--color-on-accent)',
    on: [['var(--color-accent)']],
  },
  { where: '.button, .tags a, the header search button', kind: 'text', fg: 'var(--color-text)', on: [[BG, TINT], [SURFACE, TINT]] },
  {
    where: '.join-cta--banner',
    kind: 'text',
    fg: 'var(--color-text)',
    on: [[BG, 'color-mix(in srgb, currentColor 8%, transparent)']],
    locals: { currentColor: 'var(--color-text)' },
  },
  { where: '.flash', kind: 'text', fg: 'var(--color-background)', on: [['var(--color-text)']] },
  { where: '.form-field__error (modals, account forms)', kind: 'text', fg: 'var(--color-error)', on: PLAIN_BACKDROPS },
  ...userTypeColors.map<Pair>((color) => ({
    where: `.comment-author__name with --user-type-color: ${color}`,
    kind: 'text',
    fg: 'color-mix(in srgb, var(--user-type-color) 65%, var(--color-text))',
    on: [[BG]],
    locals: { '--user-type-color': color },
  })),
  ...[...userTypeColors.map((color) => ({ '--user-type-color': color })), ...badgeColors.map((color) => ({ '--badge-color': color }))].map<Pair>(
    (locals) => ({
      where: `.comment-author__type, .badge with ${JSON.stringify(locals)}`,
      kind: 'text',
      fg: 'var(--color-text)',
      on: [[BG, 'color-mix(in srgb, var(--badge-color, var(--user-type-color)) 15%, transparent)']],
      locals,
    }),
  ),
  {
    where: 'focus ring (:focus-visible) on the page, cards and modals, and on the health warning',
    kind: 'ui',
    fg: 'var(--color-accent, #0f766e)',
    on: [[BG], [SURFACE], ['#000']],
  },
  { where: '.pagination a:focus-visible', kind: 'ui', fg: 'var(--color-accent)', on: PLAIN_BACKDROPS },
  {
    where: "the header search field's border (inside: the background, around it: the header)",
    kind: 'ui',
    fg: 'var(--color-control-border)',
    on: PLAIN_BACKDROPS,
  },
]

/**
 * Colour declarations built from the theme that need no contrast: separators and decorations carry no information
 * (WCAG 1.4.11 asks 3:1 of what identifies a control or its state, not of every line), image placeholders hold no
 * text, and a background listed here is a backdrop of the pairs above.
 */
const EXEMPT: Record<string, string> = {
  'color-mix(in srgb, var(--color-text) 12%, transparent)': 'separators of the header, footer and account menu',
  'color-mix(in srgb, var(--color-text) 15%, transparent)': "the replies' indent line",
  'var(--badge-color, var(--user-type-color))': "a badge's outline: its name says what it is",
  'var(--user-type-color)': 'a custom property, checked through the names and badges that use it',
}

describe('the brands pass WCAG 2.2 AA contrast', () => {
  it('reads every brand from config/tenants', () => {
    expect(brands.map((brand) => brand.tenant).sort()).toEqual(
      ['blacked', 'blackedraw', 'deeper', 'milfy', 'slayed', 'tushy', 'tushyraw', 'vixen', 'vixenplus', 'wifey'],
    )
    expect(userTypeColors.length).toBeGreaterThan(1)
    expect(badgeColors.length).toBeGreaterThan(1)
  })

  describe.each(brands)('$tenant', ({ theme }) => {
    const variables = themeVariables(theme)
    it.each(PAIRS)('$where', ({ kind, fg, on, locals }) => {
      const scope = { ...variables, ...locals }
      const failures = on.flatMap((layers) => {
        const background = layered(layers, scope)
        const foreground = layered([...layers, fg], scope)
        const ratio = contrastRatio(foreground, background)
        return ratio >= MINIMUM_CONTRAST[kind] ? [] : [`${fg} on ${layers.join(' + ')}: ${ratio.toFixed(2)}:1 < ${MINIMUM_CONTRAST[kind]}:1`]
      })
      expect(failures).toEqual([])
    })
  })
})

// The colour properties, and the colour part of a border or outline shorthand ("2px solid <colour>").
const COLOUR_DECLARATION = /(?:^|[;{\s])(color|background(?:-color)?|border(?:-[a-z]+)?|outline(?:-color)?)\s*:\s*([^;}]+)/g
const shorthandColour = (value: string) => value.replace(/^\s*[\d.]+(?:px|rem|em)?\s+(?:solid|dashed|dotted|double)\s+/, '').trim()

describe('the contrast pairs cover the style sheets', () => {
  const listed = new Set(PAIRS.flatMap((pair) => [pair.fg, ...pair.on.flat()]))
  const declarations = sheets.flatMap(({ file, text }) =>
    [...text.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(COLOUR_DECLARATION)]
      .map((match) => ({ file, property: match[1]!, value: shorthandColour(match[2]!).replace(/\s+/g, ' ') }))
      .filter(({ value }) => value.includes('var(--')),
  )

  it('finds the theme colours in the style sheets', () => {
    expect(declarations.length).toBeGreaterThan(30)
  })

  it('lists every colour a style sheet computes from the theme in a pair, or says why it needs no contrast', () => {
    const unlisted = declarations.filter(({ value }) => !listed.has(value) && !(value in EXEMPT))
    expect(unlisted.map(({ file, property, value }) => `${file}: ${property}: ${value}`)).toEqual([])
  })

  it('evaluates colours the way CSS does', () => {
    const white = { '--a': '#ffffff', '--b': '#000000' }
    expect(cssColor('color-mix(in srgb, var(--a) 50%, var(--b))', white)).toMatchObject({ r: 127.5, g: 127.5, b: 127.5, a: 1 })
    expect(cssColor('color-mix(in srgb, var(--b) 8%, transparent)', white)).toMatchObject({ r: 0, a: 0.08 })
    expect(layered(['#ffffff', 'rgb(0 0 0 / 0.5)'], {})).toMatchObject({ r: 127.5, a: 1 })
    expect(cssColor('var(--missing, #abc)', {})).toEqual(parseHex('#aabbcc'))
    expect(() => cssColor('var(--missing)', {})).toThrow()
    expect(contrastRatio(parseHex('#ffffff'), parseHex('#000000'))).toBeCloseTo(21, 5)
    // WCAG's own example boundary: #767676 on white is 4.54:1, the lightest grey that passes for text.
    expect(contrastRatio(parseHex('#767676'), parseHex('#ffffff'))).toBeCloseTo(4.54, 2)
  })
})
