// The application shell around every page: header, the upgrade and porn-portal bars, the page, flash notifications, the modal on top, and the
// automatic modals. While a modal is open the rest of the page is inert, so focus and screen readers stay in it.
import type { ReactNode } from 'react'
import type { RoutingSession } from '../session/bootstrap'
import { AutomaticModals } from './AutomaticModals'
import { FlashList, FlashProvider } from './Flash'
import { Footer } from './Footer'
import { Header } from './Header'
import { ModalHost } from './ModalHost'
import { ModalProvider, useModals } from './ModalManager'
import { PromptBarSlot } from './PromptBarSlot'
import './shell.css'

export interface AppShellProps {
  session: RoutingSession
  gemsModalAllowed?: () => Promise<boolean>
  children: ReactNode
}

function ShellFrame({ session, gemsModalAllowed, children }: AppShellProps) {
  const { current } = useModals()
  const modalOpen = current !== undefined
  return (
    <>
      <div className="shell" inert={modalOpen} aria-hidden={modalOpen || undefined}>
        <Header session={session} />
        <PromptBarSlot session={session} />
        <div id="content" className="shell__content" tabIndex={-1}>
          {children}
        </div>
        <Footer session={session} />
        <FlashList />
      </div>
      <ModalHost />
      <AutomaticModals session={session} gemsModalAllowed={gemsModalAllowed} />
    </>
  )
}

export function AppShell(props: AppShellProps) {
  return (
    <FlashProvider>
      <ModalProvider>
        <ShellFrame {...props} />
      </ModalProvider>
    </FlashProvider>
  )
}
