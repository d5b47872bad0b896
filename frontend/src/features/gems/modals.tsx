// The gems modals (product.md, "Gems and the wallet"): UnlockChannel (balance, cost, the unlock and its outcomes, the
// gem animation) and UserGemsInfo (balance, days until new gems, transactions; the intro variant acknowledges).
import { useMutation, useQuery } from '@apollo/client/react'
import { useEffect, useRef, useState } from 'react'
import type { ModalBodyProps } from '../../app/shell/modalIds'
import { useFlash } from '../../app/shell/Flash'
import { useSession } from '../../app/session/SessionContext'
import {
  AcknowledgeGemsIntroMutation,
  AcknowledgeNewGemsBalanceMutation,
  ChannelPackCostQuery,
  GemsBalanceQuery,
  TransactionsQuery,
  UnlockChannelPackMutation,
} from './api/gems'
import {
  canAffordPack,
  gemFrames,
  notEnoughGemsMessage,
  packUnlockMessage,
  refusedUnlock,
  type PackUnlockOutcome,
} from './packUnlock'
import './gems.css'
import { t } from '../../app/i18n'
import '../../app/i18n/copy/gems'
import '../../app/i18n/copy/shared'
import { translateRich } from '../../app/i18n/rich'


/** The balance, counting down a gem at a time after an unlock (users with tenant access: GemAnimation). */
function GemBalance({ amount, animated }: { amount: number; animated: boolean }) {
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

export function UnlockChannel({ props, close }: ModalBodyProps<'UnlockChannel'>) {
  const { user } = useSession()
  const flashes = useFlash()
  const { channelPackId, packName = t('unlock_channel_modal.this_pack'), onUnlocked } = props
  const balance = useQuery(GemsBalanceQuery, { fetchPolicy: 'network-only' })
  const price = useQuery(ChannelPackCostQuery)
  const [unlock, { loading: unlocking }] = useMutation(UnlockChannelPackMutation)
  const [outcome, setOutcome] = useState<PackUnlockOutcome | null>(null)
  const failed = Boolean(balance.error || price.error)

  useEffect(() => {
    if (failed) flashes.add({ type: 'error', translation: 'unlock_channel_modal.failed_to_load_balance' })
  }, [failed, flashes])

  if (!failed && (!balance.data || !price.data)) {
    return <p className="muted" aria-busy="true">{t('gems.loading')}</p>
  }
  if (!balance.data || !price.data) {
    return (
      <p role="alert" className="notice notice--error">
        {t('unlock_channel_modal.failed_to_load_balance')}
      </p>
    )
  }
  const gems = balance.data.getGemsBalance
  const amount = outcome?.kind === 'success' ? outcome.gemsBalance : gems.wallet.balance.amount
  const days = gems.daysUntilRefreshGems
  const cost = price.data.unlockState.channelPackCostGems
  const affordable = canAffordPack(amount, cost)
  const message = outcome ? packUnlockMessage(outcome) : affordable ? null : notEnoughGemsMessage(days)

  async function onUnlock() {
    if (unlocking || !channelPackId) return
    try {
      const { data } = await unlock({ variables: { channelPackId } })
      if (!data) throw new Error('no answer')
      setOutcome({ kind: 'success', gemsBalance: data.unlockChannelPack.gemsBalance })
      await balance.refetch().catch(() => undefined)
      onUnlocked?.()
    } catch (error) {
      setOutcome(refusedUnlock(error))
    }
  }

  return (
    <div className="unlock-channel">
      <p>
        {translateRich('unlock_channel_modal.intro', { pack: <strong>{packName}</strong> })}
      </p>
      <dl className="gems-facts">
        <dt>{t('gems.balance')}</dt>
        <dd>
          <GemBalance amount={amount} animated={user.can('see', 'GemAnimation')} />
        </dd>
        <dt>{t('gems.cost')}</dt>
        <dd data-testid="pack-cost">{t('count.gems', { count: cost })}</dd>
        <dt>{t('gems.new_gems_in')}</dt>
        <dd>{t('count.days', { count: days })}</dd>
      </dl>
      {outcome?.kind === 'success' ? (
        <p role="status" className="notice notice--success">
          {t('unlock_channel_modal.unlocked', { pack: packName })}
        </p>
      ) : null}
      {message ? (
        <p role="alert" className="notice notice--error">
          {message}
        </p>
      ) : null}
      <div className="modal__actions">
        {outcome?.kind === 'success' ? (
          <button type="button" className="button button--accent" onClick={close}>
            {t('common.watch_now')}
          </button>
        ) : (
          <button
            type="button"
            className="button button--accent"
            onClick={onUnlock}
            disabled={unlocking || outcome?.kind === 'alreadyUnlocked'}
            aria-busy={unlocking}
          >
            {unlocking ? t('common.unlocking') : t('unlock_channel_modal.unlock', { cost })}
          </button>
        )}
      </div>
    </div>
  )
}

const reasonLabel = (reason: string) => reason.replace(/_/g, ' ')

function Transactions() {
  const { data, loading, error } = useQuery(TransactionsQuery, { fetchPolicy: 'network-only' })
  if (loading) return <p className="muted">{t('gems.transactions.loading')}</p>
  if (error || !data) return <p role="alert">{t('gems.transactions.failed')}</p>
  if (data.getTransactions.length === 0) return <p className="muted">{t('gems.transactions.none')}</p>
  return (
    <table className="gems-transactions">
      <caption>{t('gems.transactions.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('gems.transactions.date')}</th>
          <th scope="col">{t('gems.transactions.what')}</th>
          <th scope="col">{t('gems.transactions.gems')}</th>
        </tr>
      </thead>
      <tbody>
        {data.getTransactions.map((transaction, index) => (
          <tr key={`${transaction.createdAt}-${index}`}>
            <td>{new Date(transaction.createdAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}</td>
            <td>{reasonLabel(transaction.transactionReason)}</td>
            <td>{signedAmount(transaction)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function UserGemsInfo({ props, close }: ModalBodyProps<'UserGemsInfo'>) {
  const intro = props.intro ?? false
  const flashes = useFlash()
  const balance = useQuery(GemsBalanceQuery, { fetchPolicy: 'network-only' })
  const price = useQuery(ChannelPackCostQuery)
  const [acknowledgeIntro] = useMutation(AcknowledgeGemsIntroMutation)
  const [acknowledgeBalance] = useMutation(AcknowledgeNewGemsBalanceMutation)
  const hasNewGems = balance.data?.getGemsBalance.gems.hasNewGems === true

  useEffect(() => {
    // Seeing the balance acknowledges the new gems: the modal then waits a day (product.md, "Gems and the wallet").
    if (hasNewGems) void acknowledgeBalance().catch(() => undefined)
  }, [hasNewGems, acknowledgeBalance])

  async function gotIt() {
    if (intro) {
      try {
        await acknowledgeIntro({ variables: { when: new Date().toISOString() } })
      } catch {
        flashes.add({ type: 'error', message: t('gems.preference_failed') })
      }
    }
    close()
  }

  const gems = balance.data?.getGemsBalance
  const cost = price.data?.unlockState.channelPackCostGems
  return (
    <div className="gems-info">
      {gems && cost !== undefined ? (
        <p data-testid="gems-intro">{t('gems.intro', { perFriday: gems.weeklyGems, cost })}</p>
      ) : null}
      {balance.error ? (
        <p role="alert">{t('unlock_channel_modal.failed_to_load_balance')}</p>
      ) : gems ? (
        <dl className="gems-facts">
          <dt>{t('gems.balance')}</dt>
          <dd>
            <GemBalance amount={gems.wallet.balance.amount} animated={false} />
          </dd>
          <dt>{t('gems.new_gems_in')}</dt>
          <dd data-testid="days-until-gems">{t('count.days', { count: gems.daysUntilRefreshGems })}</dd>
        </dl>
      ) : (
        <p className="muted">{t('gems.loading')}</p>
      )}
      <Transactions />
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={gotIt}>
          {t('gems.got_it')}
        </button>
      </div>
    </div>
  )
}

/**
 * The wallet answers every amount as a size and says its direction by `transactionType` (`grant`, `debit`,
 * `forfeit`): a debit or a forfeit takes gems away, so it is shown with a minus sign.
 */
export function signedAmount(transaction: { amount: number; transactionType: string }): string {
  const amount = Math.abs(transaction.amount)
  const takesAway = transaction.transactionType === 'debit' || transaction.transactionType === 'forfeit'
  return takesAway ? `−${amount}` : `+${amount}`
}
