/** The test files' temp directories: one implementation, kept where cli/'s tests may import it. */
export { tempDir } from '../../cli/test-support/temp-dir.ts';
