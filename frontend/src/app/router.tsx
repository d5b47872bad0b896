import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject } from 'react-router'
import { loadPageCode } from './pageCode'
import { RootLayout } from './RootLayout'
import { RouteErrorBoundary } from './RouteErrorBoundary'
import type { DataScreen } from './screenQuery'
import { appRoutes, type AppRoute } from './routes'
import {
  deniedPage,
  failure,
  isAccessDenied,
  loaderErrorOutcome,
  viewportTypeForWidth,
  type RouteInput,
  type RouteOutcome,
} from './routing'
import { screenOrLocked } from './LockedScreen'
import { fullPageLoadResponse, settle } from './navigation'
import { httpServices, type RouteServices } from './services'
import type { RoutingSession } from './session/bootstrap'
import { viewportWidth } from './theme/useViewport'

function routeInput(request: Request, params: LoaderFunctionArgs['params'], session: RoutingSession): RouteInput {
  const url = new URL(request.url)
  return {
    pathname: url.pathname,
    query: url.searchParams,
    params,
    tenant: session.tenant,
    user: session.user,
    isMembersArea: session.isMembersArea,
    viewportType: viewportTypeForWidth(viewportWidth()),
  }
}

function toRouteObject(route: AppRoute, session: RoutingSession, services: RouteServices): RouteObject {
  const { screen } = route
  return {
    path: route.path,
    loader: async ({ request, params }) => {
      const fullPageLoad = fullPageLoadResponse(request.url)
      if (fullPageLoad) throw fullPageLoad
      const input = routeInput(request, params, session)
      let outcome: RouteOutcome<unknown>
      // What failed, when something threw; a rule's own error outcome (its message, product.md, "Route errors and the error screen") has none.
      let cause: unknown
      try {
        outcome = await route.load(input, services, request.signal)
      } catch (error) {
        cause = error
        outcome = loaderErrorOutcome(input, error)
      }
      if (outcome.kind === 'page' && screen && services.preloadScreenData) {
        // The screen names its query; a page-code failure here is the chunk error of product.md, "Route errors and the error screen", not a loader error.
        const component = await loadPageCode(screen.chunk, screen.load)
        const shown = outcome
        try {
          await services.preloadScreenData(component as DataScreen, outcome.data, request)
        } catch (error) {
          // Content the server refuses this user is a locked page with the way in, not the error screen (product.md, "Access-denied routing").
          if (isAccessDenied(error)) {
            outcome = deniedPage(shown)
          } else {
            cause = error
            outcome = loaderErrorOutcome(input, error)
          }
        }
      }
      return settle(reported(outcome, cause, input.pathname, services))
    },
    ...(screen
      ? { lazy: async () => ({ Component: screenOrLocked(await loadPageCode(screen.chunk, screen.load)) }) }
      : { Component: RedirectOnly }),
  }
}

/**
 * Every error outcome is reported once, here (product.md, "Route errors and the error screen": "errors are reported to an error-reporting service when enabled,
 * otherwise logged"), whether a call threw or a rule decided it ('Outgoing upsell - Confirmation link is missing');
 * the error screen then offers "Fill a report" with the report id.
 */
function reported(outcome: RouteOutcome<unknown>, cause: unknown, path: string, services: RouteServices): RouteOutcome<unknown> {
  if (outcome.kind !== 'error' || outcome.errorReportId !== undefined) return outcome
  const errorReportId = services.errorReporting.report(cause ?? new Error(outcome.message), path)
  return failure(outcome.message, errorReportId)
}

/** The component of a route whose rule always redirects or answers not-found: never shown. */
function RedirectOnly() {
  return null
}

/**
 * The route objects of the app: the root (the brand's shell) with every route of the table under one pathless route
 * whose error boundary shows e404 and e500 inside the shell, with its header, footer and theme. The root's own
 * boundary is the last resort, for a shell that failed itself.
 */
export function appRouteObjects(session: RoutingSession, services: RouteServices = httpServices): RouteObject[] {
  const errorBoundary = () => <RouteErrorBoundary errorReporting={services.errorReporting} />
  return [
    {
      id: 'root',
      Component: () => <RootLayout session={session} gemsModalAllowed={services.gemsModalAllowed} />,
      ErrorBoundary: errorBoundary,
      HydrateFallback: () => null,
      children: [
        {
          id: 'pages',
          ErrorBoundary: errorBoundary,
          children: appRoutes.map((route) => toRouteObject(route, session, services)),
        },
      ],
    },
  ]
}

export function createAppRouter(session: RoutingSession, services: RouteServices = httpServices) {
  return createBrowserRouter(appRouteObjects(session, services))
}
