import { ApolloProvider } from '@apollo/client/react'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { createGraphqlClient } from './app/api/graphqlClient'
import { readFirstScreen, seedPageAnswers } from './app/api/firstScreen'
import { screenDataPreloader } from './app/api/screenData'
import { createSessionRefresher, startPeriodicRefresh } from './app/api/sessionRefresh'
import { errorReportingFor, loggingOnly } from './app/errorReporting'
import { createAppRouter } from './app/router'
import { httpServices } from './app/services'
import { readBootstrap } from './app/session/bootstrap'
import { applyTheme } from './app/theme/theme'
import { ErrorScreen } from './components/ErrorScreen'
import { GemsBalanceQuery } from './features/gems/api/balance'
import { captureAffiliate, documentCookies } from './features/signup/affiliate'

/** Blocked storage (privacy modes) throws on access; the shell then runs without the cross-tab timer. */
function localStorageIfAllowed(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

const root = createRoot(document.getElementById('root')!)

try {
  const session = readBootstrap(document)
  applyTheme(document.documentElement, session.tenant.theme)
  captureAffiliate(new URLSearchParams(window.location.search), documentCookies())
  const refresher = createSessionRefresher({
    fetch: (input, init) => fetch(input, init),
    membersUrl: session.tenant.membersUrl,
    tourUrl: session.tenant.tourUrl,
    currentPathAndQuery: () => `${window.location.pathname}${window.location.search}`,
    goTo: (url) => window.location.assign(url),
  })
  const graphql = createGraphqlClient({ refresher })
  const firstScreen = readFirstScreen(document)
  // The shell's answers that came with the page: the header's gems balance shows on the first paint, and the gems
  // modal's first check reads the same answer, as fresh as the page, instead of asking again.
  const fresh = seedPageAnswers(graphql, firstScreen, [GemsBalanceQuery])
  const storage = localStorageIfAllowed()
  if (session.user.isAuthenticated && storage) {
    startPeriodicRefresh({
      storage,
      now: Date.now,
      tabId: crypto.randomUUID(),
      locks: 'locks' in navigator ? navigator.locks : null,
      refresh: () => refresher.refresh(),
    })
  }
  const router = createAppRouter(session, {
    ...httpServices,
    errorReporting: errorReportingFor(session.errorReporting === true),
    preloadScreenData: screenDataPreloader(graphql, session, firstScreen),
    gemsModalAllowed: async () => {
      const fetchPolicy = fresh.delete('GemsBalance') ? 'cache-first' : 'network-only'
      const { data } = await graphql.query({ query: GemsBalanceQuery, fetchPolicy })
      return data?.getGemsBalance.gems.mayShowGemsModal === true
    },
  })
  root.render(
    <StrictMode>
      <ApolloProvider client={graphql}>
        <RouterProvider router={router} />
      </ApolloProvider>
    </StrictMode>,
  )
} catch (error) {
  // Without tenant configuration no route can decide anything: show the error screen.
  loggingOnly.report(error)
  root.render(<ErrorScreen onGoHome={() => window.location.assign('/')} />)
}
