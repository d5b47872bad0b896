// /privacy (LegalScreen.tsx).
import { LegalScreen } from './LegalScreen'

export const PrivacyScreen = () => <LegalScreen />
