// The gems balance in the gems modals (UnlockChannel.tsx, UserGemsInfo.tsx).
import { useEffect, useRef, useState } from 'react'
import { gemFrames } from '../packUnlock'
import { t } from '../../../app/i18n'
import '../copy'

/** The balance, counting down a gem at a time after an unlock (users with tenant access: GemAnimation). */
export function GemBalance({ amount, animated }: { amount: number; animated: boolean }) {
  const [shown, setShown] = useState(amount)
  const previous = useRef(amount)
  useEffect(() => {
    const from = previous.current
    previous.current = amount
    if (!animated || from === amount) {
      setShown(amount)
      return
    }
    const frames = gemFrames(from, amount)
    let index = 0
    const timer = setInterval(() => {
      index += 1
      setShown(frames[Math.min(index, frames.length - 1)]!)
      if (index >= frames.length - 1) clearInterval(timer)
    }, 50)
    return () => clearInterval(timer)
  }, [amount, animated])
  const moving = shown !== amount
  return (
    <span className={`gem-balance${moving ? ' gem-balance--moving' : ''}`} data-testid="gems-balance" data-amount={amount}>
      <span className="gem" aria-hidden="true">
        ◆
      </span>{' '}
      {t('count.gems', { count: shown })}
    </span>
  )
}
