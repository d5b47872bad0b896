// The comment and reply forms' draft keeping (Comments.tsx): a draft lives in the tab's session storage.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useSession } from '../../../app/session/SessionContext'
import { readDraft, writeDraft } from '../comments'

/** The tab's session storage, where the drafts are kept (none outside a browser). */
export const sessionStore = (): Storage | undefined => (typeof window === 'undefined' ? undefined : window.sessionStorage)

/** A comment or reply form whose text is kept as a draft while it is typed (setDraft), and forgotten once posted. */
export function DraftForm({
  storageKey,
  label,
  submitLabel,
  onPost,
  focusOnOpen = false,
}: {
  storageKey: string
  label: string
  submitLabel: string
  /** Posts the text; true when it was taken. */
  onPost: (text: string) => Promise<boolean>
  /** The reader opened the form just now: the text area takes the focus (a draft restored on load does not). */
  focusOnOpen?: boolean
}) {
  const id = useId()
  const textRef = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    if (focusOnOpen) textRef.current?.focus()
  }, [focusOnOpen])
  const { user } = useSession()
  const keepsDraft = user.can('setDraft', 'Comment')
  const [text, setText] = useState(() => (keepsDraft ? readDraft(sessionStore(), storageKey) : ''))
  const [busy, setBusy] = useState(false)
  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!text.trim() || busy) return
    setBusy(true)
    const posted = await onPost(text.trim())
    setBusy(false)
    if (posted) {
      setText('')
      writeDraft(sessionStore(), storageKey, '')
    }
  }
  return (
    <form className="comment-form" onSubmit={submit} aria-busy={busy}>
      <label htmlFor={id}>{label}</label>
      <textarea
        ref={textRef}
        id={id}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          if (keepsDraft) writeDraft(sessionStore(), storageKey, event.target.value)
        }}
        rows={3}
        maxLength={2000}
        required
      />
      <button type="submit" className="button button--accent" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  )
}
