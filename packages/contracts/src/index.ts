export * from './email';
export * from './envelope';
export * from './language';
export * from './login';
export * from './login-errors';
export * from './password';
export * from './runtime-config';
