// Vitest setup for the unit tests. `findBy…` and `waitFor` wait up to 5 s instead of Testing Library's 1 s: on two
// shared cores (CI, or beside a Rust build) a lazily loaded screen or modal can take longer than 1 s to appear, and a
// test should fail on a wrong answer, not on a busy machine. A missing element still fails, only later.
import { configure } from '@testing-library/react'

configure({ asyncUtilTimeout: 5_000 })
