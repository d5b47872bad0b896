// WCAG 2.2 colour contrast (success criteria 1.4.3 and 1.4.11) of the colours the style sheets compute from a brand's
// theme: relative luminance, the contrast ratio, and just enough of CSS colour syntax (hex, rgb(), transparent,
// var() and color-mix() in srgb) to evaluate a declaration's value the way the browser does. theme.ts derives tokens
// with it; contrast.test.ts checks every brand's text/background pairs with it.

export interface Rgba {
  r: number
  g: number
  b: number
  /** 0 (transparent) to 1 (opaque). */
  a: number
}

/** The minimum ratios: normal text 4.5:1, large text and the parts of controls (borders, focus rings) 3:1. */
export const MINIMUM_CONTRAST = { text: 4.5, large: 3, ui: 3 } as const
export type ContrastKind = keyof typeof MINIMUM_CONTRAST

export function parseHex(hex: string): Rgba {
  const digits = hex.trim().replace(/^#/, '')
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`${hex} is not a #rgb or #rrggbb colour`)
  return { r: parseInt(full.slice(0, 2), 16), g: parseInt(full.slice(2, 4), 16), b: parseInt(full.slice(4, 6), 16), a: 1 }
}

// WCAG 2.2's definition of relative luminance (sRGB, the 0.04045 threshold of the sRGB standard).
const channel = (value: number) => {
  const c = value / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

export function relativeLuminance({ r, g, b }: Rgba): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

export function contrastRatio(first: Rgba, second: Rgba): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((x, y) => y - x) as [number, number]
  return (lighter + 0.05) / (darker + 0.05)
}

/** `top` painted over `bottom` (source-over); the result is as opaque as the two together. */
export function composite(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a + bottom.a * (1 - top.a)
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 }
  const mix = (t: number, b: number) => (t * top.a + b * bottom.a * (1 - top.a)) / a
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a }
}

/** Splits a function's arguments at the commas that are not inside nested parentheses. */
function splitArguments(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')') depth--
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim())
      start = i + 1
    }
  }
  parts.push(text.slice(start).trim())
  return parts
}

/** `name(args)` as [name, args] when the whole expression is one function call. */
function call(expression: string): [string, string] | null {
  const match = /^([a-z-]+)\((.*)\)$/is.exec(expression)
  return match ? [match[1]!.toLowerCase(), match[2]!] : null
}

// color-mix() in srgb interpolates the premultiplied channels and the alpha (CSS Color 5, "color-mix").
function colorMix(args: string, variables: Readonly<Record<string, string>>): Rgba {
  const [space, ...colours] = splitArguments(args)
  if (space !== 'in srgb' || colours.length !== 2) throw new Error(`color-mix(${args}) is not a two-colour srgb mix`)
  const parsed = colours.map((part) => {
    const match = /^(.*?)\s+([\d.]+)%$/s.exec(part)
    return match ? { colour: cssColor(match[1]!, variables), weight: Number(match[2]) / 100 } : { colour: cssColor(part, variables), weight: undefined }
  })
  const [first, second] = parsed as [(typeof parsed)[number], (typeof parsed)[number]]
  const p1 = first.weight ?? (second.weight === undefined ? 0.5 : 1 - second.weight)
  const p2 = second.weight ?? 1 - p1
  const a = first.colour.a * p1 + second.colour.a * p2
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 }
  const mix = (c1: number, c2: number) => (c1 * first.colour.a * p1 + c2 * second.colour.a * p2) / a
  return { r: mix(first.colour.r, second.colour.r), g: mix(first.colour.g, second.colour.g), b: mix(first.colour.b, second.colour.b), a }
}

/**
 * The colour a CSS colour value computes to, with the custom properties in `variables` (`--name` to value; the key
 * `currentColor` for currentColor). Throws on anything it does not know, so a new kind of value is not guessed at.
 */
export function cssColor(expression: string, variables: Readonly<Record<string, string>> = {}): Rgba {
  const value = expression.trim()
  if (value.startsWith('#')) return parseHex(value)
  if (value.toLowerCase() === 'transparent') return { r: 0, g: 0, b: 0, a: 0 }
  if (value.toLowerCase() === 'currentcolor') {
    const current = variables.currentColor
    if (current === undefined) throw new Error('currentColor is not given')
    return cssColor(current, variables)
  }
  const fn = call(value)
  if (fn?.[0] === 'var') {
    const [name, ...fallback] = splitArguments(fn[1])
    const defined = variables[name!]
    if (defined !== undefined) return cssColor(defined, variables)
    if (fallback.length > 0) return cssColor(fallback.join(','), variables)
    throw new Error(`${name} is not defined`)
  }
  if (fn?.[0] === 'rgb' || fn?.[0] === 'rgba') {
    const numbers = fn[1].split(/[\s,/]+/).filter(Boolean).map(Number)
    const [r, g, b, a = 1] = numbers
    if ([r, g, b, a].some((n) => n === undefined || Number.isNaN(n))) throw new Error(`${value} is not rgb(r g b / a)`)
    return { r: r!, g: g!, b: b!, a: a! }
  }
  if (fn?.[0] === 'color-mix') return colorMix(fn[1], variables)
  throw new Error(`cannot evaluate the colour ${value}`)
}

/** The colour of layers painted bottom first (the page's background, then what each element paints over it). */
export function layered(layers: readonly string[], variables: Readonly<Record<string, string>>): Rgba {
  return layers.reduce<Rgba>((below, layer) => composite(cssColor(layer, variables), below), { r: 0, g: 0, b: 0, a: 0 })
}
