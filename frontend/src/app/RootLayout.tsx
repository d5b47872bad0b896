import { Outlet, useNavigation } from 'react-router'
import type { RoutingSession } from './session/bootstrap'
import { AppShell } from './shell/AppShell'

export function RootLayout({ session, gemsModalAllowed }: { session: RoutingSession; gemsModalAllowed?: () => Promise<boolean> }) {
  const navigation = useNavigation()
  return (
    <AppShell session={session} gemsModalAllowed={gemsModalAllowed}>
      <div aria-busy={navigation.state === 'loading'}>
        <Outlet />
      </div>
    </AppShell>
  )
}
