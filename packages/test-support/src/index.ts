export * from './free-port';
export * from './mail-sink';
export * from './route-fuzz';
