import type { ReactNode } from 'react'
import type { Shown } from '../app/head/head'
import { useDocumentHead } from '../app/head/useDocumentHead'

export interface PageProps {
  title: string
  /** What the page shows (a video, a performer), for its head's title and description (config/head.json). */
  shows?: Shown
  /** Beside the heading: a sort control, a count. */
  aside?: ReactNode
  children?: ReactNode
}

/** A screen's frame: its heading, the document's head (app/head), its content. */
export function Page({ title, shows, aside, children }: PageProps) {
  useDocumentHead(200, shows, title)
  return (
    <main className="page">
      <h1 className="page__title">{title}</h1>
      {aside}
      {children}
    </main>
  )
}
