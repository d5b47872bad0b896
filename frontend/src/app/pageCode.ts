// Page code loads lazily; a load times out after 120 s and is retried 3 times before the error view (product.md, "Route errors and the error screen").
import { PAGE_LOAD_RETRIES, PAGE_LOAD_TIMEOUT_MS } from './routing'

export type ChunkLoadErrorType = 'missing' | 'timeout' | 'other'

/** The code of a page whose code loaded but whose stylesheet did not (product.md, "Route errors and the error screen"). */
export const CSS_CHUNK_LOAD_FAILED = 'CSS_CHUNK_LOAD_FAILED'

export class ChunkLoadError extends Error {
  readonly type: ChunkLoadErrorType
  readonly code: typeof CSS_CHUNK_LOAD_FAILED | undefined

  constructor(chunk: string, type: ChunkLoadErrorType, options?: { cause?: unknown; css?: boolean }) {
    super(`Loading chunk ${chunk} failed`, options)
    this.name = 'ChunkLoadError'
    this.type = type
    this.code = options?.css ? CSS_CHUNK_LOAD_FAILED : undefined
  }
}

/** Vite's preload helper rejects with 'Unable to preload CSS for …' when a lazy chunk's stylesheet fails. */
const isCssPreloadFailure = (error: unknown) => error instanceof Error && /Unable to preload CSS/i.test(error.message)

class Timeout extends Error {}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), timeoutMs)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** A failed import of a missing module reads as a TypeError about fetching or importing the module. */
function failureType(error: unknown): ChunkLoadErrorType {
  if (error instanceof Timeout) return 'timeout'
  if (error instanceof TypeError && /fetch|import|module/i.test(error.message)) return 'missing'
  return 'other'
}

export async function loadPageCode<T>(
  chunk: string,
  load: () => Promise<T>,
  { retries = PAGE_LOAD_RETRIES, timeoutMs = PAGE_LOAD_TIMEOUT_MS }: { retries?: number; timeoutMs?: number } = {},
): Promise<T> {
  let lastError: unknown
  for (let attempt = 0; attempt <= retries; attempt += 1) {
    try {
      return await withTimeout(load(), timeoutMs)
    } catch (error) {
      lastError = error
    }
  }
  throw new ChunkLoadError(chunk, failureType(lastError), { cause: lastError, css: isCssPreloadFailure(lastError) })
}

/** Chunk failures leave the running code unreliable: navigation after one becomes a full page load. */
export function isRecoverable(error: unknown): boolean {
  return !(error instanceof ChunkLoadError)
}
