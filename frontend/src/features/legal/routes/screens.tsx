// The legal pages. /safety and /removal show the privacy content (their loaders say which), /2257 the compliance
// statement; all of them are "Footer Link" pages for analytics.
import type { ReactNode } from 'react'
import { useLoaderData, useSearchParams } from 'react-router'
import type { PageOutcome } from '../../../app/routing'
import type { LegalContent } from './rules'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { legalDocument } from '../content'
import './legal.css'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/legal'
import { translateRich } from '../../../app/i18n/rich'

/** The error-report id "Fill a report" brings along, to quote to support. */
function ErrorReportNotice() {
  const [query] = useSearchParams()
  const id = query.get('errorReportId')
  if (!id || !/^[A-Za-z0-9-]{1,64}$/.test(id)) return null
  return (
    <p className="notice" role="status">
      {translateRich('legal.error_report', { id: <code>{id}</code> })}
    </p>
  )
}

function LegalScreen({ heading, notice }: { heading?: string; notice?: ReactNode }) {
  const outcome = useLoaderData() as PageOutcome<{ content: LegalContent }>
  const { tenant } = useSession()
  const document = legalDocument(outcome.data.content, tenant.site)
  return (
    <Page title={heading ?? document.title}>
      {notice}
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
export const SafetyScreen = () => <LegalScreen heading={t('footer.safety')} />
export const RemovalScreen = () => <LegalScreen heading={t('footer.removal')} />
export const ComplianceScreen = () => <LegalScreen />
export const SupportScreen = () => <LegalScreen notice={<ErrorReportNotice />} />
