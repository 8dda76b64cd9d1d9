// The benchmark helpers in one import (`from './lib'`); each file holds one concern.
export * from './suite.js';
export * from './servers.js';
export * from './http.js';
export * from './load.js';
export * from './machine.js';
export * from './report.js';
export * from './profile.js';
export * from './sightline.js';
export * from './seeding.js';
