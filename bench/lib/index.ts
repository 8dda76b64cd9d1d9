// The benchmark helpers in one import (`from './lib'`); each file holds one concern.
export * from './suite';
export * from './servers';
export * from './http';
export * from './load';
export * from './machine';
export * from './report';
export * from './profile';
export * from './sightline';
