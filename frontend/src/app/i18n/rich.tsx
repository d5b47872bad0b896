// Copy with markup inside (a link, a <strong> name): the English stays one sentence under one key, and each
// {{name}} placeholder that stands for an element is filled with that element.
import { Fragment, type ReactNode } from 'react'
import { translate, type TranslationKey, type TranslationValues } from '.'

export type RichValues = Readonly<Record<string, ReactNode>>

/** The text of `key`, with string and number values interpolated as `t` does and element values put in place. */
export function translateRich(key: TranslationKey, values: RichValues): ReactNode {
  const plain: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number') plain[name] = value
  }
  const text = translate(key, plain as TranslationValues)
  const parts = text.split(/\{\{\s*([\w.-]+)\s*\}\}/)
  return parts.map((part, index) =>
    index % 2 === 0 ? part : <Fragment key={index}>{part in values ? values[part] : `{{${part}}}`}</Fragment>,
  )
}
