export * from './store';
export * from './memory-store';
export * from './sqlite-store';
export * from './create-store';
export * from './create-call-memo';
