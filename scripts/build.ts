import path from 'node:path';
import { replaceDist } from './build-dist';

/** `npm run build`, which `npm start` runs first: the production build in dist/. */
const root = path.resolve(__dirname, '..');
const started = performance.now();
const build = replaceDist(root, path.join(root, 'dist'));
process.stdout.write(`built dist/ (core; plugins ${build.plugins.join(', ')}) in ${Math.round(performance.now() - started)} ms\n`);
