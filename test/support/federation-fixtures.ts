// Two federation subgraphs for tests, one per federation version: `users` (v1: `extend type Query`, `@key`) owns
// User and its name; `reviews` (v2: `extend schema @link`) adds User.reviews and owns the top-level `reviews` list,
// whose authors are Users resolved by `users` through `_entities`. A query for `reviews { body author { name } }`
// or `me { name reviews { body } }` needs an entity from each subgraph.
import { startSubgraph, type Subgraph } from './subgraph.ts';

export const USERS_SDL = `extend type Query {
  me: User
}

type User @key(fields: "id") {
  id: ID!
  name: String
}
`;

export const REVIEWS_SDL = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])

type Query {
  reviews: [Review!]!
}

type User @key(fields: "id") {
  id: ID!
  reviews: [Review!]
}

type Review {
  body: String!
  author: User
}
`;

/** Composes with REVIEWS_SDL only as a conflict: User.id is a String here. */
export const CONFLICTING_SDL = `extend type Query {
  people: [User]
}

type User @key(fields: "id") {
  id: String!
  nickname: String
}
`;

const PEOPLE: Record<string, { id: string; name: string }> = { '1': { id: '1', name: 'Ada' }, '2': { id: '2', name: 'Grace' } };
/** A User as the reviews subgraph knows it: its id and its reviews. */
interface Reviewer {
  id: string;
  reviews: () => Review[];
}
interface Review {
  body: string;
  author: Reviewer;
}
const reviewer = (id: string): Reviewer => ({ id, reviews: () => REVIEWS.filter((x) => x.author.id === id) });
const REVIEWS: Review[] = [];
REVIEWS.push({ body: 'elegant', author: reviewer('2') }, { body: 'thorough', author: reviewer('1') });

export async function startUsersSubgraph(): Promise<Subgraph> {
  return startSubgraph(USERS_SDL, { me: () => PEOPLE['1'] }, { User: (r) => PEOPLE[r.id as string] });
}

export async function startReviewsSubgraph(): Promise<Subgraph> {
  return startSubgraph(REVIEWS_SDL, { reviews: () => REVIEWS }, { User: (r) => reviewer(r.id as string) });
}
