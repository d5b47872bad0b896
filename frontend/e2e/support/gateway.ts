import { request } from 'node:http'

// Where the stack under test answers. E2E_GATEWAY is one brand's origin (default http://tushy.localhost:8080);
// every other brand is the same origin with its own host label, as the gateway tells tenants apart by Host.

export const GATEWAY = new URL(process.env.E2E_GATEWAY ?? 'http://tushy.localhost:8080')

/** The origin of a brand (e.g. 'vixen') on the gateway under test. */
export function brandOrigin(brand: string): string {
  const url = new URL(GATEWAY.origin)
  const [, ...rest] = url.hostname.split('.')
  url.hostname = [brand, ...rest].join('.')
  return url.origin
}

/** An absolute address on a brand: brandUrl('vixen', '/videos?page=2'). */
export function brandUrl(brand: string, path: string): string {
  return new URL(path, brandOrigin(brand)).toString()
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
}

/**
 * One GET to a brand exactly as a browser would send it, without following redirects. Node does not resolve
 * `*.localhost` (Chromium does), so the request goes to the loopback address with the brand's Host header.
 */
export async function brandGet(brand: string, path: string): Promise<RawResponse> {
  const { status, headers } = await crawlerGet(new URL(path, brandOrigin(brand)).toString(), {
    accept: 'text/html',
    'user-agent': 'Mozilla/5.0 (paysite journeys)',
  })
  return { status, headers }
}

export interface FetchedText extends RawResponse {
  body: string
}

/** One GET to any address of the stack as a crawler sends it (its own headers, no redirects followed), with the body. */
export function crawlerGet(url: string, headers: Record<string, string> = {}): Promise<FetchedText> {
  const target = new URL(url)
  const hostname = target.hostname.endsWith('.localhost') || target.hostname === 'localhost' ? '127.0.0.1' : target.hostname
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port: target.port || 80,
        path: target.pathname + target.search,
        method: 'GET',
        headers: { host: target.host, 'user-agent': 'Googlebot/2.1 (paysite journeys)', ...headers },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`GET ${target} timed out`)))
    req.on('error', reject)
    req.end()
  })
}
