// The site footer: the legal pages (analytics label "Footer Link"), support on the members host, and the sister
// sites this brand lists under /sites/{brand}/videos.
import { Link } from 'react-router'
import { useTranslation } from '../i18n'
import type { RoutingSession } from '../session/bootstrap'

export function Footer({ session }: { session: RoutingSession }) {
  const { t } = useTranslation()
  const { tenant } = session
  const sisters = tenant.standaloneSites.filter((brand) => brand !== tenant.tenant)
  return (
    <footer className="site-footer" aria-label={t('footer.label')}>
      <nav aria-label={t('footer.legal')}>
        <ul>
          <li><Link to="/casting">{t('footer.casting')}</Link></li>
          <li><Link to="/terms">{t('footer.terms')}</Link></li>
          <li><Link to="/privacy">{t('footer.privacy')}</Link></li>
          <li><Link to="/safety">{t('footer.safety')}</Link></li>
          <li><Link to="/removal">{t('footer.removal')}</Link></li>
          <li><Link to="/2257">{t('footer.compliance')}</Link></li>
          <li><a href={`${tenant.membersUrl.replace(/\/+$/, '')}/support`}>{t('footer.support')}</a></li>
          {session.user.isAuthenticated ? <li><Link to="/cams">{t('footer.cams')}</Link></li> : null}
        </ul>
      </nav>
      {sisters.length > 0 ? (
        <nav aria-label={t('footer.sister_sites')}>
          <h2 className="site-footer__heading">{t('footer.sister_sites')}</h2>
          <ul>
            {sisters.map((brand) => (
              <li key={brand}>
                <Link to={`/sites/${brand}/videos`}>{brand.toUpperCase()}</Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <p className="muted">{t('footer.copyright', { year: new Date().getFullYear(), site: tenant.site })}</p>
    </footer>
  )
}
