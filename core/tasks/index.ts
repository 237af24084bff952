export * from './create-image-task-runner';
