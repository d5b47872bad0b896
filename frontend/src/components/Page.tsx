import type { ReactNode } from 'react'

/** A screen's frame: its heading and content. */
export function Page({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <main>
      <h1>{title}</h1>
      {children}
    </main>
  )
}
