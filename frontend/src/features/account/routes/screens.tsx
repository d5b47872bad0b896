// Screens of this area. Each is a minimal page until its data and components arrive.
import { useLoaderData } from 'react-router'
import { useTranslation } from '../../../app/i18n'
import type { PageOutcome } from '../../../app/routing'
import { Page } from '../../../components/Page'

export function AccountScreen() {
  const { t } = useTranslation()
  const outcome = useLoaderData() as PageOutcome<{ passwordChangedBrands: string | null }> | undefined
  const brands = outcome?.data?.passwordChangedBrands
  return (
    <Page title="Account">
      {brands ? (
        <p role="status" className="notice notice--success">
          {t('account.password_changed', { brands })}
        </p>
      ) : null}
    </Page>
  )
}
