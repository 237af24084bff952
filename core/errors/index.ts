export * from './codes';
export * from './gateway-error';
export * from './mask-secret';
export * from './mask-url-credentials';
export * from './mask-gateway-error';
export * from './mask-json-strings';
export * from './mask-echoed-credentials';
