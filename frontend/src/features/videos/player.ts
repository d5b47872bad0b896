// Which file the player plays: the qualities the token answer holds, best first, and the default for the screen.

export const QUALITIES = ['p2160', 'p1080', 'p720', 'p480', 'p480l', 'p360', 'p270'] as const
export type Quality = (typeof QUALITIES)[number]

export const QUALITY_LABELS: Readonly<Record<Quality, string>> = {
  p2160: '4K',
  p1080: '1080p',
  p720: '720p',
  p480: '480p',
  p480l: '480p mobile',
  p360: '360p',
  p270: '270p',
}

export interface PlayableSource {
  quality: Quality
  label: string
  url: string
}

type Tokens = Partial<Record<Quality, { url: string } | null>>

/** The progressive (MP4) sources the tokens allow, best first. */
export function playableSources(tokens: Tokens | null | undefined): PlayableSource[] {
  if (!tokens) return []
  return QUALITIES.flatMap((quality) => {
    const token = tokens[quality]
    return token?.url ? [{ quality, label: QUALITY_LABELS[quality], url: token.url }] : []
  })
}

/** Phones start at 480p (mobile 480 first), larger screens at 1080p, or the best below it. */
export function defaultSource(sources: readonly PlayableSource[], mobile: boolean): PlayableSource | undefined {
  const preferred: readonly Quality[] = mobile
    ? ['p480l', 'p480', 'p360', 'p720', 'p270', 'p1080', 'p2160']
    : ['p1080', 'p720', 'p480', 'p2160', 'p480l', 'p360', 'p270']
  for (const quality of preferred) {
    const source = sources.find((candidate) => candidate.quality === quality)
    if (source) return source
  }
  return sources[0]
}

/** Demo trailers are animated pictures; real ones are video files the <video> element plays. */
export function isVideoFile(src: string): boolean {
  return /\.(mp4|webm|m3u8|mov)(\?|$)/i.test(src)
}
