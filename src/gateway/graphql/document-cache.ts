// Analysed query documents of one GraphQL API by query text (document-analysis.ts), so a repeated query is neither
// parsed nor validated again: a least-recently-used map holding at most `entries` texts (graphql
// .document_cache_entries; 0 keeps nothing). Failed analyses are kept too: a client repeating an invalid query
// costs no more than one repeating a valid one. Built with the API's route (proxy/compiled-api.ts), so a reload
// that changes the schema starts empty. Never holds anything that depends on the key sending the query.
import type { GraphQLSchema } from 'graphql';
import { analyseDocument, type DocumentAnalysis } from './document-analysis.ts';

export class DocumentCache {
  readonly #schema: GraphQLSchema;
  readonly #entries: number;
  readonly #byQuery = new Map<string, DocumentAnalysis>();

  constructor(schema: GraphQLSchema, entries: number) {
    this.#schema = schema;
    this.#entries = entries;
  }

  analysis(query: string): DocumentAnalysis {
    const known = this.#byQuery.get(query);
    if (known) {
      // Most recently used last: Map iteration order is insertion order.
      this.#byQuery.delete(query);
      this.#byQuery.set(query, known);
      return known;
    }
    const analysis = analyseDocument(this.#schema, query);
    if (this.#entries === 0) return analysis;
    if (this.#byQuery.size >= this.#entries) this.#byQuery.delete(this.#byQuery.keys().next().value!);
    this.#byQuery.set(query, analysis);
    return analysis;
  }

  get size(): number {
    return this.#byQuery.size;
  }
}
