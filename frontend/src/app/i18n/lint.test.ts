// @vitest-environment node
// The lint rule that keeps copy in the translations (eslint.config.js, docs/decisions/): what it refuses and what it lets by.
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: new URL('../../..', import.meta.url).pathname })

async function literalErrors(code: string, filePath = 'src/features/example/Example.tsx'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === 'i18next/no-literal-string').map((m) => m.message)
}

describe('the no-literal-string rule', () => {
  it('refuses English written in JSX: text, a user-facing prop, a literal child', async () => {
    expect(await literalErrors('export const Example = () => <p>Hello there</p>\n')).toHaveLength(1)
    expect(await literalErrors('export const Example = () => <button aria-label="Close it" />\n')).toHaveLength(1)
    expect(await literalErrors("export const Example = ({ on }: { on: boolean }) => <p>{on ? 'Hide' : 'Show'}</p>\n")).toHaveLength(2)
  }, 30_000)

  it('lets symbols, paths, markup props and t() by', async () => {
    const code = [
      "import { t } from '../../app/i18n'",
      "export const Example = () => (",
      '  <a className="nav link" href="/videos" data-testid="x">',
      "    ▲ · / × {t('navigation.home')}",
      '  </a>',
      ')',
      '',
    ].join('\n')
    expect(await literalErrors(code)).toEqual([])
  }, 30_000)

  it('does not check tests', async () => {
    expect(await literalErrors('export const Example = () => <p>Hello there</p>\n', 'src/features/example/Example.test.tsx')).toEqual([])
  }, 30_000)
})
