import { suiteConfig } from './vitest.suites.js';

export default suiteConfig('slow');
