// /support, with the error-report id "Fill a report" brings along (LegalScreen.tsx).
import { useSearchParams } from 'react-router'
import '../copy'
import { translateRich } from '../../../app/i18n/rich'
import { LegalScreen } from './LegalScreen'

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

export const SupportScreen = () => <LegalScreen notice={<ErrorReportNotice />} />
