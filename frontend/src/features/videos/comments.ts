// The messages a failed comment or rating shows (account-payments-gems.md §8): the server's code decides.
import { CombinedGraphQLErrors } from '@apollo/client'
import { t } from '../../app/i18n'

const COMMENT_MESSAGES: Readonly<Record<string, string>> = {
  DUPLICATE_COMMENT: t('comments.duplicate'),
  BANNED_WORD: t('comments.banned_word'),
}

const RATING_MESSAGES: Readonly<Record<string, string>> = {
  ALREADY_RATED: t('rating.already_rated'),
  OVERALL_RATING_FIRST: t('rating.overall_first'),
}

function codes(error: unknown): string[] {
  if (!CombinedGraphQLErrors.is(error)) return []
  return error.errors.flatMap((entry) => (typeof entry.extensions?.code === 'string' ? [entry.extensions.code] : []))
}

function messageFor(error: unknown, messages: Readonly<Record<string, string>>, fallback: string): string {
  for (const code of codes(error)) if (messages[code]) return messages[code]
  // The server's own words where it has no code of ours: 'You have already rated', 'Found banned word'.
  if (CombinedGraphQLErrors.is(error)) {
    const known = Object.values(messages)
    const said = error.errors.map((entry) => entry.message).find((message) => known.includes(message))
    if (said) return said
  }
  return fallback
}

export const commentErrorMessage = (error: unknown) => messageFor(error, COMMENT_MESSAGES, t('comments.add_failed'))
export const ratingErrorMessage = (error: unknown) => messageFor(error, RATING_MESSAGES, t('common.try_again'))
