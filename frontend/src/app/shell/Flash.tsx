// Flash notifications: add from anywhere; each dismisses itself after its time or by its button.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from '../i18n'
import { addFlash, removeFlash, type Flash, type FlashInput } from './flashes'

export interface Flashes {
  add(flash: FlashInput): void
  dismiss(id: number): void
  shown: readonly Flash[]
}

const FlashContext = createContext<Flashes | null>(null)

export function FlashProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<readonly Flash[]>([])
  const nextId = useRef(1)
  const add = useCallback((flash: FlashInput) => {
    const id = nextId.current++
    setShown((current) => addFlash(current, flash, id))
  }, [])
  const dismiss = useCallback((id: number) => setShown((current) => removeFlash(current, id)), [])
  const value = useMemo(() => ({ add, dismiss, shown }), [add, dismiss, shown])
  return <FlashContext.Provider value={value}>{children}</FlashContext.Provider>
}

export function useFlash(): Flashes {
  const flashes = useContext(FlashContext)
  if (!flashes) throw new Error('useFlash outside FlashProvider')
  return flashes
}

function FlashItem({ flash, dismiss }: { flash: Flash; dismiss: (id: number) => void }) {
  const { t } = useTranslation()
  useEffect(() => {
    const timer = setTimeout(() => dismiss(flash.id), flash.dismissAfter)
    return () => clearTimeout(timer)
  }, [flash.id, flash.dismissAfter, dismiss])
  const text = flash.translation ? t(flash.translation, flash.values as Record<string, string | number>) : flash.message
  return (
    // The list item keeps its role (a list holds only list items); the message inside it is the live region.
    <li className={`flash flash--${flash.type}`}>
      <span role={flash.type === 'error' ? 'alert' : 'status'}>{text}</span>
      <button type="button" className="flash__dismiss" aria-label={t('flash.dismiss')} onClick={() => dismiss(flash.id)}>
        ×
      </button>
    </li>
  )
}

export function FlashList() {
  const { t } = useTranslation()
  const { shown, dismiss } = useFlash()
  return (
    <section className="flashes" aria-label={t('flash.region')} aria-live="polite">
      <ul>
        {shown.map((flash) => (
          <FlashItem key={flash.id} flash={flash} dismiss={dismiss} />
        ))}
      </ul>
    </section>
  )
}
