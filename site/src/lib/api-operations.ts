// The API reference's endpoints, read from the OpenAPI document the build publishes: each
// with an anchor of its own (its operationId, or one made from method and path where the
// dialects have none), split into the native API and the compatibility dialects, which
// get a page of their own.
import { openapi } from "./data";

export interface Operation {
  /** The section's id, the anchor a link to it names. */
  id: string;
  method: string;
  /** The path as shown: without the `{format}` suffix marker. */
  path: string;
  op: any;
  dialect: boolean;
}

/** "post /api/Conversion/ConvertTimeZone" -> "post-api-conversion-converttimezone". */
const slug = (method: string, path: string) => `${method}-${path}`.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** A parameter or answer several endpoints share is written once, under components (`$ref`): shown in place. */
const inPlace = (value: any): any =>
  typeof value?.$ref === "string" ? value.$ref.split("/").slice(1).reduce((node: any, key: string) => node[key], openapi) : value;

export const operations: Operation[] = Object.entries(openapi.paths as Record<string, any>).flatMap(([path, item]) =>
  Object.entries(item as Record<string, any>).map(([method, op]) => ({
    id: op.operationId ?? slug(method, path),
    method: method.toUpperCase(),
    path: path.replace("{format}", ""),
    op: {
      ...op,
      parameters: op.parameters?.map(inPlace),
      responses: Object.fromEntries(Object.entries(op.responses ?? {}).map(([status, answer]) => [status, inPlace(answer)])),
    },
    dialect: (op.tags ?? []).some((t: string) => t.endsWith("dialect")),
  })));

export const nativeOperations = operations.filter((o) => !o.dialect);
export const dialectOperations = operations.filter((o) => o.dialect);
