// Translations by the spec's keys. The resources use i18next's format (nested keys, {{name}} interpolation, plural
// suffixes _one/_other chosen by `count`), and `t` answers as i18next's t does for those features. i18next itself
// is not used: its 16 kB gzip alone would take the home route's whole budget (docs/decisions/). Going
// back to it changes this file and resources.ts only.
//
// The copy is split (docs/decisions/): ./en.ts is the shell's (what the entry, the screen code every route shares
// and the home page read), ./copy/<reader>.ts the rest, by the screens and modals that read it. A module that reads a
// key of a copy module imports that module itself (`import '…/app/i18n/copy/deals'`), so the words arrive with the
// code that shows them; copy.test.ts checks every source file for it.
import { loaded, type Resources } from './resources'
import type { en } from './en'
import type { accountCopy } from './copy/account'
import type { angelsCopy } from './copy/angels'
import type { channelsCopy } from './copy/channels'
import type { dealsCopy } from './copy/deals'
import type { favoritesCopy } from './copy/favorites'
import type { gemsCopy } from './copy/gems'
import type { legalCopy } from './copy/legal'
import type { performersCopy } from './copy/performers'
import type { quickiesCopy } from './copy/quickies'
import type { recommendationsCopy } from './copy/recommendations'
import type { reviewsCopy } from './copy/reviews'
import type { searchCopy } from './copy/search'
import type { sharedCopy } from './copy/shared'
import type { signupCopy } from './copy/signup'
import type { sitesCopy } from './copy/sites'
import type { subscriptionCopy } from './copy/subscription'
import type { unlocksCopy } from './copy/unlocks'
import type { upgradeCopy } from './copy/upgrade'
import type { videosCopy } from './copy/videos'
import type { wallCopy } from './copy/wall'

export type TranslationKey =
  | Leaves<typeof en>
  | Leaves<typeof accountCopy>
  | Leaves<typeof angelsCopy>
  | Leaves<typeof channelsCopy>
  | Leaves<typeof dealsCopy>
  | Leaves<typeof favoritesCopy>
  | Leaves<typeof gemsCopy>
  | Leaves<typeof legalCopy>
  | Leaves<typeof performersCopy>
  | Leaves<typeof quickiesCopy>
  | Leaves<typeof recommendationsCopy>
  | Leaves<typeof reviewsCopy>
  | Leaves<typeof searchCopy>
  | Leaves<typeof sharedCopy>
  | Leaves<typeof signupCopy>
  | Leaves<typeof sitesCopy>
  | Leaves<typeof subscriptionCopy>
  | Leaves<typeof unlocksCopy>
  | Leaves<typeof upgradeCopy>
  | Leaves<typeof videosCopy>
  | Leaves<typeof wallCopy>

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>
}[keyof T & string]

export type TranslationValues = Readonly<Record<string, string | number>>
export type Translate = (key: TranslationKey, values?: TranslationValues) => string

export interface Translator {
  translate(key: string, values?: TranslationValues): string
  exists(key: string): boolean
}

export function createTranslator(resources: Resources, language: string): Translator {
  const plurals = new Intl.PluralRules(language)

  function lookup(key: string): string | undefined {
    let node: string | Resources | undefined = resources
    for (const part of key.split('.')) {
      if (node === undefined || typeof node === 'string') return undefined
      node = node[part]
    }
    return typeof node === 'string' ? node : undefined
  }

  function interpolate(text: string, values: TranslationValues | undefined): string {
    if (!values) return text
    return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (match, name: string) => (name in values ? String(values[name]) : match))
  }

  return {
    /** The text of a key; a plural form when `count` is given and the key has one; the key itself when missing. */
    translate(key, values) {
      const count = values?.count
      const text = (typeof count === 'number' ? lookup(`${key}_${plurals.select(count)}`) : undefined) ?? lookup(key)
      return text === undefined ? key : interpolate(text, values)
    },
    exists: (key) => lookup(key) !== undefined,
  }
}

const english = createTranslator(loaded, 'en')

export const translate = english.translate

export const t: Translate = translate

export function useTranslation(): { t: Translate } {
  return { t }
}

/** Whether a string from elsewhere (a loader's flash, the server) is one of our keys. */
export function isTranslationKey(key: string): key is TranslationKey {
  return english.exists(key)
}
