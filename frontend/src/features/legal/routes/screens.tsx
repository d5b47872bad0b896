// The legal pages. /safety and /removal show the privacy content (their loaders say which), /2257 the compliance
// statement; all of them are "Footer Link" pages for analytics.
import { useLoaderData } from 'react-router'
import type { LegalContent, PageOutcome } from '../../../app/routing'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { legalDocument } from '../content'
import './legal.css'

function LegalScreen({ heading }: { heading?: string }) {
  const outcome = useLoaderData() as PageOutcome<{ content: LegalContent }>
  const { tenant } = useSession()
  const document = legalDocument(outcome.data.content, tenant.site)
  return (
    <Page title={heading ?? document.title}>
      <div className="legal">
        {document.sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
        ))}
      </div>
    </Page>
  )
}

export const CastingScreen = () => <LegalScreen />
export const TermsScreen = () => <LegalScreen />
export const PrivacyScreen = () => <LegalScreen />
export const SafetyScreen = () => <LegalScreen heading="Trust & safety" />
export const RemovalScreen = () => <LegalScreen heading="Content removal" />
export const ComplianceScreen = () => <LegalScreen />
export const SupportScreen = () => <LegalScreen />
