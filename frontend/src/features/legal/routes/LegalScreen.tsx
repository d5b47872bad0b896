// A legal page, whichever its loader names. /safety and /removal show the privacy content (their loaders say which),
// /2257 the compliance statement; all of them are "Footer Link" pages for analytics. Each route's screen is in its
// own file (CastingScreen.tsx, TermsScreen.tsx, …).
import type { ReactNode } from 'react'
import { useLoaderData } from 'react-router'
import type { PageOutcome } from '../../../app/routing'
import type { LegalContent } from './rules'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { legalDocument } from '../content'
import './legal.css'

export function LegalScreen({ heading, notice }: { heading?: string; notice?: ReactNode }) {
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
