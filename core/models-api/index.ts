export * from './model-card';
export * from './model-dialect';
export * from './encode-model';
export * from './page-models';
export * from './openai-model-cards';
export * from './create-models-handler';
export * from './model-name-bounds';
