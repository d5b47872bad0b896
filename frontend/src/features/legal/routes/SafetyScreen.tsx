// /safety: the privacy content under its own heading (LegalScreen.tsx).
import { t } from '../../../app/i18n'
import { LegalScreen } from './LegalScreen'

export const SafetyScreen = () => <LegalScreen heading={t('footer.safety')} />
