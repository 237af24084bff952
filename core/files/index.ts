export * from './file-links';
export { mountFileRoutes } from './file-routes';
