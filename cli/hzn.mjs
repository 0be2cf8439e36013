#!/usr/bin/env node
// `npx hzn` in the repository: runs the TypeScript sources through tsx (the built dist/hzn.mjs needs nothing).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
