import type { ManualChunkMeta, ModuleInfo } from 'rollup'
import { describe, expect, it } from 'vitest'
import { sharedScreenCode } from './sharedChunk'

/** A module graph: id → static imports; the first id is the entry. */
function meta(graph: Record<string, string[]>): ManualChunkMeta {
  const [entry] = Object.keys(graph)
  return {
    getModuleIds: () => Object.keys(graph)[Symbol.iterator](),
    getModuleInfo: (id: string) => ({ id, isEntry: id === entry, importedIds: graph[id] ?? [] }) as unknown as ModuleInfo,
  }
}

describe('sharedScreenCode', () => {
  const graph = meta({
    '/app/index.html': ['/app/src/main.tsx'],
    '/app/src/main.tsx': ['/app/node_modules/react/index.js', '/app/src/app/router.tsx', '/app/src/components/ErrorScreen.tsx'],
    '/app/src/app/router.tsx': [],
    '/app/src/components/ErrorScreen.tsx': [],
    '/app/node_modules/react/index.js': [],
    '/app/src/features/home/routes/screens.ts': ['/app/src/components/Shelf/Shelf.tsx', '/app/node_modules/some-lib/index.js'],
    '/app/src/components/Shelf/Shelf.tsx': ['/app/node_modules/react/index.js'],
    '/app/src/app/useScreenQuery.ts': [],
    '/app/node_modules/some-lib/index.js': [],
  })

  it("keeps what the entry imports in the entry's chunk, named so Rollup does not move it", () => {
    const chunk = sharedScreenCode()
    expect(chunk('/app/index.html', graph)).toBe('index')
    expect(chunk('/app/src/main.tsx', graph)).toBe('index')
    expect(chunk('/app/node_modules/react/index.js', graph)).toBe('index')
    expect(chunk('/app/src/components/ErrorScreen.tsx', graph)).toBe('index')
  })

  it('puts the components and app code only screens use into one shared chunk', () => {
    const chunk = sharedScreenCode()
    expect(chunk('/app/src/components/Shelf/Shelf.tsx', graph)).toBe('shared')
    expect(chunk('/app/src/app/useScreenQuery.ts', graph)).toBe('shared')
  })

  it('leaves screens and the libraries only a feature imports where Rollup puts them', () => {
    const chunk = sharedScreenCode()
    expect(chunk('/app/src/features/home/routes/screens.ts', graph)).toBeNull()
    expect(chunk('/app/node_modules/some-lib/index.js', graph)).toBeNull()
  })

  describe('with the landing screen', () => {
    const landing = meta({
      '/app/index.html': ['/app/src/main.tsx'],
      '/app/src/main.tsx': ['/app/node_modules/@apollo/client/react/index.js'],
      '/app/node_modules/@apollo/client/react/index.js': [
        '/app/node_modules/@apollo/client/react/hooks/useQuery.js',
        '/app/node_modules/@apollo/client/react/hooks/useMutation.js',
      ],
      '/app/node_modules/@apollo/client/react/hooks/useQuery.js': [],
      '/app/node_modules/@apollo/client/react/hooks/useMutation.js': [],
      '/app/src/features/home/routes/screens.ts': ['/app/src/components/Shelf/Shelf.tsx'],
      '/app/src/components/Shelf/Shelf.tsx': [],
      '/app/src/features/videos/routes/screens.ts': ['/app/src/components/Shelf/Shelf.tsx', '/app/src/components/Listing/Listing.tsx'],
      '/app/src/components/Listing/Listing.tsx': ['/app/src/app/i18n/copy/shared.ts'],
      '/app/src/app/i18n/copy/shared.ts': [],
      '/app/src/features/videos/copy.ts': [],
    })
    const chunk = () => sharedScreenCode('/app/src/features/home/routes/screens')

    it('keeps in `shared` what the landing screen imports, and puts the rest of the shared code in `shared-screens`', () => {
      const named = chunk()
      expect(named('/app/src/components/Shelf/Shelf.tsx', landing)).toBe('shared')
      expect(named('/app/src/components/Listing/Listing.tsx', landing)).toBe('shared-screens')
      expect(named('/app/src/app/i18n/copy/shared.ts', landing)).toBe('shared-screens')
    })

    it("leaves a feature's copy with its readers", () => {
      expect(chunk()('/app/src/features/videos/copy.ts', landing)).toBeNull()
    })

    it("puts Apollo's useQuery and useMutation, which the entry reaches through Apollo's index only, with the screens", () => {
      const named = chunk()
      expect(named('/app/node_modules/@apollo/client/react/hooks/useQuery.js', landing)).toBe('shared-screens')
      expect(named('/app/node_modules/@apollo/client/react/hooks/useMutation.js', landing)).toBe('shared-screens')
      expect(named('/app/node_modules/@apollo/client/react/index.js', landing)).toBe('index')
    })

    it('refuses a landing screen the build does not have', () => {
      expect(() => sharedScreenCode('/app/src/features/nowhere/screens')('/app/src/main.tsx', landing)).toThrow(/no module/)
    })
  })
})
