// The English copy the page has so far: the shell's (./en.ts) from the start, and each screen's (./copy/shared.ts,
// features/<feature>/copy.ts) from the moment a module that reads it is evaluated. Copy is split so the home route does not download every screen's
// words (docs/decisions/); each copy module adds itself here when imported, before any component of its importer
// can render.
import { en } from './en'

export type Resources = { readonly [key: string]: string | Resources }

type Branch = { [key: string]: string | Branch }

export const loaded: Branch = {}

function mergeInto(target: Branch, source: Resources): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key]
    if (typeof value === 'string') target[key] = value
    else mergeInto(typeof current === 'object' ? current : (target[key] = {}), value)
  }
}

/** Adds a screen's copy (a copy module does this itself when imported). */
export function addTranslations(copy: Resources): void {
  mergeInto(loaded, copy)
}

addTranslations(en)
