// /_upsell_signupsuccess: the outgoing upsell went through (UpsellResult.tsx).
import { t } from '../../../app/i18n'
import '../copy'
import { UpsellResult } from './UpsellResult'

export function UpsellSuccessScreen() {
  return <UpsellResult title={t('deals.upsell.success_title')} outcome={t('deals.upsell.success')} />
}
