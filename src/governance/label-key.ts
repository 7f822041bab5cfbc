// A label's unique key: the snake_case identifier derived from its display name ("Business Domain" ->
// business_domain, "APICriticality" -> api_criticality, "Région" -> region). Pure; the key is recomputed whenever a
// label is renamed, so it always matches the current name. A name without a letter or digit has no key.
export function labelKeyOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents, after NFKD split them off their letters
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2') // camelCase boundary
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2') // acronym followed by a word: APICriticality
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
