export * from './to-request-echo';
export * from './unified-request';
export * from './unified-response';
export * from './unified-stream-event';
export * from './media-parts';
export * from './text-documents';
