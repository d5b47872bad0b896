// Translations by the spec's keys. The resources use i18next's format (nested keys, {{name}} interpolation, plural
// suffixes _one/_other chosen by `count`), and `t` answers as i18next's t does for those features. i18next itself
// is not used: its 16 kB gzip alone would take the home route's whole budget (docs/decisions/). Going
// back to it changes this file and resources.ts only.
//
// The copy is split (docs/decisions/): ./en.ts is the shell's (what the entry, the screen code every route shares
// and the home page read), ./copy/shared.ts what several features read, and the rest sits in the feature whose
// screens and modals read it, features/<feature>/copy.ts
// (docs/decisions/front-end/feature-copy-lives-feature-one-screen-per-file.md). A module that reads a key of a copy
// module imports that module itself (`import '../copy'` in features/deals/routes), so the words arrive with the code
// that shows them; copy.test.ts checks every source file for it.
import { loaded, type Resources } from './resources'
import type { en } from './en'
import type { sharedCopy } from './copy/shared'
import type { accountCopy } from '../../features/account/copy'
import type { angelsCopy } from '../../features/angels/copy'
import type { channelsCopy } from '../../features/channels/copy'
import type { dealsCopy } from '../../features/deals/copy'
import type { favoritesCopy } from '../../features/favorites/copy'
import type { gemsCopy } from '../../features/gems/copy'
import type { legalCopy } from '../../features/legal/copy'
import type { performersCopy } from '../../features/performers/copy'
import type { quickiesCopy } from '../../features/quickies/copy'
import type { recommendationsCopy } from '../../features/recommendations/copy'
import type { reviewsCopy } from '../../features/reviews/copy'
import type { searchCopy } from '../../features/search/copy'
import type { signupCopy } from '../../features/signup/copy'
import type { sitesCopy } from '../../features/sites/copy'
import type { subscriptionCopy } from '../../features/subscription/copy'
import type { unlocksCopy } from '../../features/unlocks/copy'
import type { upgradeCopy } from '../../features/upgrade/copy'
import type { videosCopy } from '../../features/videos/copy'
import type { wallCopy } from '../../features/wall/copy'

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
