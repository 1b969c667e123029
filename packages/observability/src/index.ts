export * from './app-metrics';
export * from './client-error';
export * from './logging';
export * from './metrics-server';
export * from './request-id';
