// Bundled in place of Fastify's default schema compilers (@fastify/ajv-compiler and
// @fastify/fast-json-stringify-compiler; electron.vite.config.ts aliases them here). Fastify requires
// them only when it is given no compilers of its own, and http/app.ts always gives it its own: so
// the daemon neither parses nor holds their code (Ajv, fast-json-stringify, fast-uri) at start.
// Were Fastify ever to require one, this module's namespace is not the function it calls: it
// fails at once, as the app is built.

export default function noFastifyCompilers(): never {
  throw new Error("Fastify's default schema compilers are not bundled: give Fastify its own (schemaController.compilersFactory), as http/app.ts does.");
}
