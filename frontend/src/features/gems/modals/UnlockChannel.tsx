// UnlockChannel, a gems modal (product.md, "Gems and the wallet"): balance, cost, the unlock and its outcomes, the
// gem animation.
import { useMutation, useQuery } from '@apollo/client/react'
import { useEffect, useState } from 'react'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { useFlash } from '../../../app/shell/Flash'
import { useSession } from '../../../app/session/SessionContext'
import { ChannelPackCostQuery, GemsBalanceQuery, UnlockChannelPackMutation } from '../api/gems'
import { canAffordPack, notEnoughGemsMessage, packUnlockMessage, refusedUnlock, type PackUnlockOutcome } from '../packUnlock'
import '../gems.css'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'
import { translateRich } from '../../../app/i18n/rich'
import { GemBalance } from './GemBalance'

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
