import { useEffect, type ReactNode } from 'react'

export interface PageProps {
  title: string
  /** The document title; the page heading by default. */
  documentTitle?: string
  /** Beside the heading: a sort control, a count. */
  aside?: ReactNode
  children?: ReactNode
}

/** A screen's frame: its heading, the document title, its content. */
export function Page({ title, documentTitle, aside, children }: PageProps) {
  const fullTitle = documentTitle ?? title
  useEffect(() => {
    document.title = fullTitle
  }, [fullTitle])
  return (
    <main className="page">
      <h1 className="page__title">{title}</h1>
      {aside}
      {children}
    </main>
  )
}
