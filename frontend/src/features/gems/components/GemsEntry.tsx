// The doors back to the gems popup (UserGemsInfo, product.md, "Gems and the wallet"): a gems balance in the header for users
// with a wallet, and a button on the account page. Opening it by hand is not the automatic opening, which the
// once-a-day rule alone governs (product.md, "Modals and flashes"; app/shell/autoModals.ts).
import { useQuery } from '@apollo/client/react'
import { useModals } from '../../../app/shell/ModalManager'
import type { RoutingSession } from '../../../app/session/bootstrap'
import { GemsBalanceQuery } from '../api/gems'
import { hasWallet } from '../packUnlock'
import '../gems.css'
import { t } from '../../../app/i18n'
import '../copy'

const gemsText = (amount: number) => t('count.gems', { count: amount })

/** The header's gems balance: shown to a signed-in user with a wallet; a click opens the popup. */
export default function HeaderGems({ session }: { session: RoutingSession }) {
  const { user } = session
  const { open } = useModals()
  const { data } = useQuery(GemsBalanceQuery, { skip: !user.isAuthenticated })
  const amount = data?.getGemsBalance.wallet.balance.amount
  if (amount === undefined || !hasWallet({ receivesGems: user.can('see', 'GemAnimation'), balance: amount })) return null
  return (
    <button
      type="button"
      className="site-nav__link header-gems"
      aria-label={t('gems.header_label', { gems: gemsText(amount) })}
      data-testid="header-gems"
      onClick={() => open('UserGemsInfo')}
    >
      <span className="gem" aria-hidden="true">
        ◆
      </span>{' '}
      {amount}
    </button>
  )
}

/** The account page's gems section: the balance and the popup. */
export function AccountGems() {
  const { open } = useModals()
  const { data } = useQuery(GemsBalanceQuery)
  const gems = data?.getGemsBalance
  return (
    <section className="account-section" aria-labelledby="gems-heading">
      <h2 id="gems-heading">{t('gems.heading')}</h2>
      {gems ? (
        <p data-testid="account-gems">
          {t('gems.account_balance', {
            gems: gemsText(gems.wallet.balance.amount),
            days: t('count.days', { count: gems.daysUntilRefreshGems }),
          })}
        </p>
      ) : null}
      <button type="button" className="button" onClick={() => open('UserGemsInfo')}>
        {t('gems.see_all')}
      </button>
    </section>
  )
}
