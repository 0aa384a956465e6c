/**
 * The Vitest configuration mutation testing runs under (stryker.config.mjs): the suite's own, over
 * the test files listed there for the measured modules.
 */
import suite from './vitest.config.ts';
import { MUTATION_TEST_FILES } from './stryker.config.mjs';

export default { ...suite, test: { ...suite.test, include: MUTATION_TEST_FILES } };
