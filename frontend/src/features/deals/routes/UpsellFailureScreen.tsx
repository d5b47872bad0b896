// /_upsell_signupdenial: the outgoing upsell was declined (UpsellResult.tsx).
import { t } from '../../../app/i18n'
import '../copy'
import { UpsellResult } from './UpsellResult'

export function UpsellFailureScreen() {
  return <UpsellResult title={t('deals.upsell.failure_title')} outcome={t('deals.upsell.failure')} />
}
