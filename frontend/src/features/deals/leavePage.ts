// Leaving for another page with a full load (a partner's site, a confirmation link): one place, so tests can see it.
export function leavePage(url: string): void {
  window.location.assign(url)
}
