export { startFakeProvider, FAKE_API_KEY, WIRES, type FakeBehaviour, type FakeProvider, type FakeReply } from './server.js';
export { DEFAULT_ANSWER, DEFAULT_SOURCES, citedOrder, type FakeAnswer, type FakeSource } from './answer.js';
export type { RecordedRequest, Reply } from './wire.js';
