export * from './free-port';
export * from './mail-sink';
