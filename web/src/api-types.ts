// The dashboard's types of the API's answers, taken from the OpenAPI document's generated
// types (web/src/generated/api.ts, `npm run openapi:types`) rather than written twice: a
// schema change that a page does not follow fails `npm run typecheck`.
import type { components, paths } from './generated/api';

export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'patch' | 'delete';
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Ok<R> = R extends { 200: infer A } ? Json<A> : R extends { 201: infer C } ? Json<C> : R extends { 202: infer D } ? Json<D> : never;

/** The body a route answers when it succeeds (200, else 201 or 202). */
export type Body<P extends keyof paths, M extends Method = 'get'> = paths[P][M] extends { responses: infer R } ? Ok<R> : never;

/** The `data` of that body: what `get` and `data` in api.ts hand back. */
export type Data<P extends keyof paths, M extends Method = 'get'> = Body<P, M> extends { data: infer D } ? D : never;

/** One item of a list. */
export type Item<L> = L extends ReadonlyArray<infer I> ? I : never;

/** What a route takes as its JSON body. */
export type RequestBody<P extends keyof paths, M extends Method = 'post'> = paths[P][M] extends { requestBody?: infer R } ? Json<NonNullable<R>> : never;
