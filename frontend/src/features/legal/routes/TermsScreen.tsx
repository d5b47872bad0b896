// /terms (LegalScreen.tsx).
import { LegalScreen } from './LegalScreen'

export const TermsScreen = () => <LegalScreen />
