import { useEffect } from 'react'

export const NOT_FOUND_TITLE = 'Page Not Found'

/** The e404 page. */
export function NotFoundPage() {
  useEffect(() => {
    document.title = NOT_FOUND_TITLE
  }, [])
  return (
    <main>
      <h1>{NOT_FOUND_TITLE}</h1>
      <p>The page you are looking for does not exist.</p>
      <a href="/">Go Home</a>
    </main>
  )
}
