export * from './create-image-task-runner';
export * from './task-owner';
