// Opens the automatic modal of product.md, "Modals and flashes" when a page shows. Each opens at most once per page load, except the health
// warning, which comes back on every page until acknowledged.
import { useEffect, useEffectEvent, useRef } from 'react'
import { useLocation, useMatches } from 'react-router'
import type { ScreenId } from '../routing'
import type { RoutingSession } from '../session/bootstrap'
import { automaticModal, type AutomaticModal } from './autoModals'
import { acknowledgedLocally } from './healthWarningStore'
import type { ModalId } from './modalIds'
import { useModals } from './ModalManager'
import { autoModalFacts } from './shellFacts'

export interface AutomaticModalsProps {
  session: RoutingSession
  /** Whether the gems modal may show now (not within the last day); absent, the gems intro never opens. */
  gemsModalAllowed?: () => Promise<boolean>
}

/** The screen of the page on show: the deepest match whose loader answered a page. */
export function useCurrentScreen(): ScreenId | undefined {
  const matches = useMatches()
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const data = matches[index]!.loaderData as { kind?: unknown; screen?: unknown } | undefined
    if (data?.kind === 'page' && typeof data.screen === 'string') return data.screen as ScreenId
  }
  return undefined
}

export function AutomaticModals({ session, gemsModalAllowed }: AutomaticModalsProps) {
  const screen = useCurrentScreen()
  const location = useLocation()
  const modals = useModals()
  // The effect runs per page shown; the modal functions it calls are the shell's current ones.
  const isOpen = useEffectEvent((id: ModalId) => modals.isOpen(id))
  const openModal = useEffectEvent((decision: AutomaticModal) => modals.show(decision))
  const opened = useRef(new Set<ModalId>())

  useEffect(() => {
    if (screen === undefined) return
    const facts = autoModalFacts(session, screen, new URLSearchParams(location.search), acknowledgedLocally())
    const decision = automaticModal(facts, session.tenant)
    if (!decision || isOpen(decision.id)) return
    if (decision.id !== 'HealthWarning' && opened.current.has(decision.id)) return
    const open = () => {
      opened.current.add(decision.id)
      openModal(decision)
    }
    if (decision.id !== 'UserGemsInfo') return open()
    if (!gemsModalAllowed) return
    let cancelled = false
    gemsModalAllowed()
      .then((allowed) => {
        if (allowed && !cancelled) open()
      })
      .catch(() => undefined)
    return () => {
      cancelled = true
    }
  }, [screen, location.key, location.search, session, gemsModalAllowed])

  return null
}
