import { Suspense, useCallback, useState } from 'react'
import { Outlet, useNavigation } from 'react-router'
import { usePageViews } from './analytics'
import { adoptSession, type RoutingSession } from './session/bootstrap'
import { SessionProvider } from './session/SessionContext'
import { AppShell } from './shell/AppShell'

export function RootLayout({ session, gemsModalAllowed }: { session: RoutingSession; gemsModalAllowed?: () => Promise<boolean> }) {
  const navigation = useNavigation()
  usePageViews()
  // A copy per change, so the shell and every screen render again when a screen signs the user in (adoptSession).
  const [current, setCurrent] = useState(session)
  const adopt = useCallback(
    (fresh: RoutingSession) => {
      adoptSession(session, fresh)
      setCurrent({ ...session })
    },
    [session],
  )
  return (
    <SessionProvider session={current} adopt={adopt}>
      <AppShell session={current} gemsModalAllowed={gemsModalAllowed}>
        <div aria-busy={navigation.state === 'loading'}>
          {/* A screen whose data is not in the cache yet waits here on a first load; later navigations keep the
              previous page on show until the next one is ready. */}
          <Suspense fallback={<div className="page-loading" />}>
            <Outlet />
          </Suspense>
        </div>
      </AppShell>
    </SessionProvider>
  )
}
