import { useEffect, useState } from 'react'
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router'
import { ErrorScreen } from '../components/ErrorScreen'
import { asHttpError } from './api/screenData'
import { NotFoundPage } from '../components/NotFoundPage'
import type { ErrorReporting } from './errorReporting'
import { RouteFailure, requireFullPageLoads } from './navigation'
import { isRecoverable } from './pageCode'
import { HttpError } from './routing'

/** A 404 from a loader, or a NOT_FOUND from a query a screen ran itself. */
const isNotFound = (error: unknown) => {
  if (isRouteErrorResponse(error)) return error.status === 404
  const mapped = asHttpError(error)
  return mapped instanceof HttpError && mapped.status === 404
}

/** e404 for not-found; otherwise the error screen. Errors that did not come through a loader are reported here. */
export function RouteErrorBoundary({ errorReporting }: { errorReporting: ErrorReporting }) {
  const error = useRouteError()
  const navigate = useNavigate()
  const recoverable = isRecoverable(error)
  const [reported, setReported] = useState<{ error: unknown; id: string | undefined }>()

  useEffect(() => {
    if (!recoverable) requireFullPageLoads()
    if (error instanceof RouteFailure || isNotFound(error)) return
    // The report is a side effect, made once the error page is committed; its id is known only then.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the id comes from that side effect
    setReported((previous) => (previous?.error === error ? previous : { error, id: errorReporting.report(error) }))
  }, [error, recoverable, errorReporting])

  if (isNotFound(error)) return <NotFoundPage />
  const errorReportId = error instanceof RouteFailure ? error.errorReportId : reported && reported.error === error ? reported.id : undefined
  return (
    <ErrorScreen
      errorReportId={errorReportId}
      onGoHome={() => (recoverable ? navigate('/') : window.location.assign('/'))}
      onFillReport={errorReporting.openReportDialog}
    />
  )
}
