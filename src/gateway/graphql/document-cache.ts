// Analysed query documents of one GraphQL API by query text (document-analysis.ts), so a repeated query is neither
// parsed nor validated again: an lru-cache holding at most `entries` texts (graphql.document_cache_entries;
// 0 keeps nothing). No TTL: an analysis depends only on the text and the schema, so it cannot go stale. Failed
// analyses are kept too: a client repeating an invalid query costs no more than one repeating a valid one. Built with the API's route (proxy/compiled-api.ts), so a reload
// that changes the schema starts empty. Never holds anything that depends on the key sending the query.
import type { GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import { analyseDocument, type DocumentAnalysis } from './document-analysis.ts';

export class DocumentCache {
  readonly #schema: GraphQLSchema;
  /** Undefined with 0 entries (lru-cache needs a positive bound). */
  readonly #byQuery: LRUCache<string, DocumentAnalysis> | undefined;

  constructor(schema: GraphQLSchema, entries: number) {
    this.#schema = schema;
    this.#byQuery = entries > 0 ? new LRUCache({ max: entries }) : undefined;
  }

  analysis(query: string): DocumentAnalysis {
    const known = this.#byQuery?.get(query);
    if (known) return known;
    const analysis = analyseDocument(this.#schema, query);
    this.#byQuery?.set(query, analysis);
    return analysis;
  }

  get size(): number {
    return this.#byQuery?.size ?? 0;
  }
}
