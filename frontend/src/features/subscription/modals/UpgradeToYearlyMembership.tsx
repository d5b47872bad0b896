// UpgradeToYearlyMembership, a membership modal (product.md, "Subscriptions and their states").
import { useQuery } from '@apollo/client/react'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { optionPrice } from '../../signup'
import { YearlyUpgradeOptionDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { ConsentedPurchase } from './ConsentedPurchase'
import { useOneclickMultisite, usePurchaseAnswer } from './oneClickPurchase'

/**
 * UpgradeToYearlyMembership: for a member the subscription service calls upgradeable to the VP yearly plan
 * (isUpgradeableToVixenPlusYearly); the plan is the service's configured VP yearly option, bought in one click.
 */
export function UpgradeToYearlyMembership({ props, close }: ModalBodyProps<'UpgradeToYearlyMembership'>) {
  const { data, loading, error } = useQuery(YearlyUpgradeOptionDocument)
  const { onAnswer, onError } = usePurchaseAnswer('multisite', close)
  const elm = props.elm ?? 'upgrade-yearly'
  const oneclick = useOneclickMultisite(elm, onAnswer, onError)
  const yearlyId = data?.joinOptions.vixenPlusYearlyJoinOptionId
  const option = data?.joinOptions.joinOptions.find((candidate) => candidate.id === yearlyId) ?? null
  if (loading) return <p className="muted">{t('purchase_membership_modal.loading_options')}</p>
  if (error || option === null) return <p role="alert">{t('upgrade_yearly_modal.options_failed')}</p>
  return (
    <div className="upgrade-yearly" data-option={option.id}>
      <p>{t('upgrade_yearly_modal.intro')}</p>
      <p>
        <strong>
          {option.title}: {optionPrice(option)}
        </strong>
      </p>
      <ConsentedPurchase
        text={t('purchase_membership_modal.charge_consent')}
        action={t('account.membership.upgrade_yearly')}
        busy={oneclick.busy}
        onBuy={() => oneclick.buy(option.id)}
      />
    </div>
  )
}
