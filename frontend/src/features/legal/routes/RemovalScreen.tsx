// /removal: the privacy content under its own heading (LegalScreen.tsx).
import { t } from '../../../app/i18n'
import { LegalScreen } from './LegalScreen'

export const RemovalScreen = () => <LegalScreen heading={t('footer.removal')} />
