// The messages a failed comment or rating shows (product.md, "Comments, ratings and favourites"): the server's code decides.
import { CombinedGraphQLErrors } from '@apollo/client'
import { t } from '../../app/i18n'
import '../../app/i18n/copy/shared'
import './copy'

const COMMENT_MESSAGES: Readonly<Record<string, string>> = {
  DUPLICATE_COMMENT: t('comments.duplicate'),
  BANNED_WORD: t('comments.banned_word'),
}

const VOTE_MESSAGES: Readonly<Record<string, string>> = {
  ALREADY_LIKED: t('comments.already_liked'),
  ALREADY_DISLIKED: t('comments.already_disliked'),
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
export const voteErrorMessage = (error: unknown) => messageFor(error, VOTE_MESSAGES, t('comments.vote_failed'))

/** Where a comment being written is kept while it is typed (setDraft, product.md, "Comments, ratings and favourites"): per video, or per comment for a reply. */
export const draftKey = (target: { videoId: string } | { commentId: string }) =>
  'videoId' in target ? `paysite.comment-draft:video:${target.videoId}` : `paysite.comment-draft:reply:${target.commentId}`

/** The draft kept under `key`; empty when none (or when storage is unavailable). */
export function readDraft(storage: Pick<Storage, 'getItem'> | undefined, key: string): string {
  try {
    return storage?.getItem(key) ?? ''
  } catch {
    return ''
  }
}

/** Keeps `text` under `key`, or forgets it once empty (posted or cleared). */
export function writeDraft(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, key: string, text: string): void {
  try {
    if (text === '') storage?.removeItem(key)
    else storage?.setItem(key, text)
  } catch {
    // A full or disabled storage keeps no draft; the text stays in the form.
  }
}
