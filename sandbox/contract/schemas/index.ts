/*
 * The stand-in's own wire schemas (zod), written from docs/openapi.yaml and the contract record
 * (docs/service-contract.md). They began as a copy of what the node checks, and belong to the
 * stand-in now: the node's may change without these following, and the document, checked by
 * openapi-backend on every request (../openApiRequests.ts), is what both answer to. A body schema
 * is named `<operation>Body`, its success answer `<operation>Answer`.
 */
export * from './fields';
export * from './events';
export * from './subscribers';
export * from './issues';
