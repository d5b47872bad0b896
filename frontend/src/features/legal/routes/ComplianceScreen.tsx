// /2257: the compliance statement (LegalScreen.tsx).
import { LegalScreen } from './LegalScreen'

export const ComplianceScreen = () => <LegalScreen />
