// Navigation dropdowns: only one is open at a time (product.md, "Screens and routes"). Escape closes and gives focus back to its button; a click
// elsewhere or a navigation closes it.
import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router'

interface DropdownGroupState {
  active: string | null
  setActive: (id: string | null) => void
}

const DropdownContext = createContext<DropdownGroupState | null>(null)

export function DropdownGroup({ children }: { children: ReactNode }) {
  const [active, setActive] = useState<string | null>(null)
  // A navigation closes the open dropdown. Derived while rendering rather than in an effect: an effect also runs on
  // mount, and when the mount's effect is flushed late it closes a dropdown the user has just opened.
  const location = useLocation()
  const [seenKey, setSeenKey] = useState(location.key)
  if (seenKey !== location.key) {
    setSeenKey(location.key)
    setActive(null)
  }
  const value = useMemo(() => ({ active, setActive }), [active])
  return <DropdownContext.Provider value={value}>{children}</DropdownContext.Provider>
}

export function NavDropdown({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const group = useContext(DropdownContext)
  if (!group) throw new Error('NavDropdown outside DropdownGroup')
  const { active, setActive } = group
  const open = active === id
  const panelId = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setActive(null)
    }
    // Escape anywhere inside the dropdown (its button or a link in its panel) closes it.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !rootRef.current?.contains(event.target as Node)) return
      setActive(null)
      buttonRef.current?.focus()
    }
    document.addEventListener('mousedown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('mousedown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [open, setActive])

  return (
    <div ref={rootRef} className="nav-dropdown">
      <button
        ref={buttonRef}
        type="button"
        className="nav-dropdown__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setActive(open ? null : id)}
      >
        {label}
      </button>
      <ul id={panelId} className="nav-dropdown__panel" hidden={!open}>
        {children}
      </ul>
    </div>
  )
}
