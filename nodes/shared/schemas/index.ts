/*
 * Wire schemas (zod): one source for the node, the stand-in and the tests. This index holds what the
 * first operations send and what every schema file shares; the other files here are one per area of
 * the service (contacts.ts, conversations.ts, broadcasts.ts…) and are imported by their path.
 * A body schema is named `<operation>Body`, its success answer `<operation>Answer`.
 */
export * from './fields';
export * from './events';
export * from './subscribers';
export * from './answers';
export * from './issues';
