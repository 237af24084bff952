import path from 'node:path';
import { replaceDist } from './build-dist';

/** `npm run build`, which `npm start` runs first: the production build in dist/, rebuilt when the sources changed. */
const root = path.resolve(__dirname, '..');
const started = performance.now();
const build = replaceDist(root, path.join(root, 'dist'));
const took = `${Math.round(performance.now() - started)} ms`;
process.stdout.write(build.rebuilt ? `built dist/ (core; plugins ${build.plugins.join(', ')}) in ${took}\n` : `dist/ is up to date (checked in ${took})\n`);
