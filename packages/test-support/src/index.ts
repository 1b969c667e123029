export * from './free-port';
export * from './mail-sink';
export * from './metrics-text';
export * from './route-fuzz';
