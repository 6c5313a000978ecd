/** Stands in for the MCP SDK's ajv validator in the page's build (see ./noAjv.ts): the page always passes its own. */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('the page validates JSON Schemas with @cfworker/json-schema: pass jsonSchemaValidator');
  }
}
