// Translations by the spec's keys. The resources use i18next's format (nested keys, {{name}} interpolation, plural
// suffixes _one/_other chosen by `count`), and `t` answers as i18next's t does for those features. i18next itself
// is not used: its 16 kB gzip alone would take the home route's whole budget (docs/decisions.md). Going
// back to it changes this file only.
import { en } from './en'

type Resources = { readonly [key: string]: string | Resources }

export type TranslationKey = Leaves<typeof en>

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

const english = createTranslator(en, 'en')

export const translate = english.translate

export const t: Translate = translate

export function useTranslation(): { t: Translate } {
  return { t }
}

/** Whether a string from elsewhere (a loader's flash, the server) is one of our keys. */
export function isTranslationKey(key: string): key is TranslationKey {
  return english.exists(key)
}
