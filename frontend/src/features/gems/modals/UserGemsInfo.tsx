// UserGemsInfo, a gems modal (product.md, "Gems and the wallet"): balance, days until new gems, transactions; the
// intro variant acknowledges.
import { useMutation, useQuery } from '@apollo/client/react'
import { useEffect } from 'react'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { useFlash } from '../../../app/shell/Flash'
import {
  AcknowledgeGemsIntroMutation,
  AcknowledgeNewGemsBalanceMutation,
  ChannelPackCostQuery,
  GemsBalanceQuery,
  TransactionsQuery,
} from '../api/gems'
import '../gems.css'
import { t } from '../../../app/i18n'
import '../copy'
import { GemBalance } from './GemBalance'

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
