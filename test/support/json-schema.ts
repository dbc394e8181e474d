// A validator for the part of JSON Schema 2020-12 our OpenAPI document uses: $ref, type
// (with "null"), properties, required, additionalProperties: false, items, enum, const,
// pattern, minimum, maximum, oneOf. Returns what is wrong, empty when the value fits.

type Schema = Record<string, any>;

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

/** The object a `$ref` names within `root` (an OpenAPI component: a schema, a parameter, an answer); the value itself if it is none. */
export function resolveRef(value: any, root: Schema): any {
  if (typeof value?.$ref !== "string") return value;
  return (value.$ref as string).split("/").slice(1).reduce((o: any, k: string) => o?.[k], root);
}

export function validate(value: unknown, schema: Schema, root: Schema, at = "$"): string[] {
  if (schema.$ref) {
    const target = resolveRef(schema, root);
    if (!target) return [`${at}: unresolved ${schema.$ref}`];
    return validate(value, target, root, at);
  }
  if (schema.oneOf) {
    const fits = (schema.oneOf as Schema[]).filter((s) => validate(value, s, root, at).length === 0).length;
    return fits === 1 ? [] : [`${at}: matches ${fits} of oneOf, not exactly one`];
  }
  const errors: string[] = [];
  if (schema.type) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!allowed.includes(actual) && !(actual === "integer" && allowed.includes("number"))) return [`${at}: ${actual}, expected ${allowed.join("|")}`];
  }
  if (schema.const !== undefined && value !== schema.const) errors.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
  if (typeof value === "string" && schema.pattern && !new RegExp(schema.pattern).test(value)) errors.push(`${at}: "${value}" does not match ${schema.pattern}`);
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: ${value} < ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: ${value} > ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...validate(v, schema.items, root, `${at}[${i}]`)));
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) errors.push(`${at}: missing ${key}`);
    for (const [key, v] of Object.entries(object)) {
      const property = schema.properties?.[key];
      if (property) errors.push(...validate(v, property, root, `${at}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: unexpected property ${key}`);
    }
  }
  return errors;
}
