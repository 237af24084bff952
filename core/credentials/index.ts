export * from './credential-types';
export * from './credential-id';
export * from './create-credential-pool';
export * from './call-with-credentials';
export * from './credential-schemas';
export * from './read-cooldown-hint';
export * from './create-api-key-pool';
