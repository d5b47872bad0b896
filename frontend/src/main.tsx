import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { createAppRouter } from './app/router'
import { loggingOnly } from './app/errorReporting'
import { readBootstrap } from './app/session/bootstrap'
import { ErrorScreen } from './components/ErrorScreen'

const root = createRoot(document.getElementById('root')!)

try {
  const router = createAppRouter(readBootstrap(document))
  root.render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  )
} catch (error) {
  // Without tenant configuration no route can decide anything: show the error screen.
  loggingOnly.report(error)
  root.render(<ErrorScreen onGoHome={() => window.location.assign('/')} />)
}
