// A scripted fetch for the API tests: each call takes the next answer and is recorded.
import { vi } from 'vitest'

export type Answer = Response | Error | ((request: Request) => Response | Promise<Response>)

export interface FakeFetch {
  fetch: typeof fetch
  calls: Request[]
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' }, ...init })
}

export function fakeFetch(...answers: Answer[]): FakeFetch {
  const calls: Request[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input instanceof Request ? input.url : input), 'http://tushy.localhost'), init)
    calls.push(request)
    const answer = answers.shift()
    if (answer === undefined) throw new Error(`unexpected call ${request.method} ${request.url}`)
    if (answer instanceof Error) throw answer
    return typeof answer === 'function' ? answer(request) : answer
  })
  return { fetch: fetchMock as unknown as typeof fetch, calls }
}

export const noSleep = () => Promise.resolve()
