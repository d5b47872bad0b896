// A comment's moderator tools (Comments.tsx).
import { useMutation } from '@apollo/client/react'
import { t } from '../../../app/i18n'
import '../copy'
import { useFlash } from '../../../app/shell/Flash'
import { useSession } from '../../../app/session/SessionContext'
import { CommentRepliesDocument, PinCommentDocument, RemoveCommentDocument, UnpinCommentDocument, VideoCommentsDocument } from '../../../gql/graphql'

/** Moderators' tools on a comment (product.md, "Comments, ratings and favourites"): pin or unpin (top-level comments), remove; each refreshes the list. */
export function ModeratorTools({ comment, isReply }: { comment: { id: string; pinned: boolean }; isReply: boolean }) {
  const { user } = useSession()
  const flashes = useFlash()
  const options = { refetchQueries: [VideoCommentsDocument, CommentRepliesDocument] }
  const [pin, pinning] = useMutation(PinCommentDocument, options)
  const [unpin, unpinning] = useMutation(UnpinCommentDocument, options)
  const [remove, removing] = useMutation(RemoveCommentDocument, options)
  const busy = pinning.loading || unpinning.loading || removing.loading
  const mayPin = !isReply && user.can(comment.pinned ? 'unpin' : 'pin', 'Comment')
  const mayRemove = user.can('remove', 'Comment')
  if (!mayPin && !mayRemove) return null
  const run = (action: () => Promise<unknown>, failure: string) => () =>
    void action().catch(() => flashes.add({ type: 'error', message: failure }))
  const variables = { variables: { commentId: comment.id } }
  return (
    <p className="comment__tools">
      {mayPin ? (
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={run(
            () => (comment.pinned ? unpin(variables) : pin(variables)),
            comment.pinned ? t('comments.unpin_failed') : t('comments.pin_failed'),
          )}
        >
          {comment.pinned ? t('comments.unpin') : t('comments.pin')}
        </button>
      ) : null}{' '}
      {mayRemove ? (
        <button type="button" className="button" disabled={busy} onClick={run(() => remove(variables), t('comments.remove_failed'))}>
          {t('comments.remove')}
        </button>
      ) : null}
    </p>
  )
}
