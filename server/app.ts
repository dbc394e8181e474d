// The fetch handler: the API first, then the service's own paths (/, /health); anything
// else is a 404 in the one error shape. Any exception that escapes is logged and answered
// with a JSON 500, never a stack trace (and every 500 is a bug to fix).

import type { Server } from "bun";
import { peerAddress } from "./client-address.ts";
import type { Clock } from "./clock.ts";
import type { LoadedData } from "./data.ts";
import { handleApi } from "./http/api.ts";
import { HttpError, METHOD_NOT_ALLOWED, NOT_FOUND } from "./http/http-errors.ts";
import { requestTarget } from "./http/request-target.ts";
import { logError, logEvent } from "./log.ts";

export interface AppState {
  data: LoadedData;
  clock: Clock;
  accessLog: boolean;
  startedAt: number;
}

export type FetchHandler = (req: Request, server: Server<unknown> | null) => Response;

export function createFetchHandler(state: AppState): FetchHandler {
  return (req, server) => {
    const started = state.accessLog ? performance.now() : 0;
    const clientAddress = peerAddress(req, server);
    let response: Response;
    try {
      response = handleApi(
        { method: req.method, url: req.url, ifNoneMatch: () => req.headers.get("if-none-match"), clientAddress },
        state.data,
        state.clock,
      ) ?? serviceRoute(req, state);
    } catch (error) {
      logError("request_failed", error, { method: req.method, url: req.url });
      response = internalError(state);
    }
    if (state.accessLog) {
      logEvent("request", {
        method: req.method,
        path: requestTarget(req.url).path.slice(0, 256),
        status: response.status,
        client: clientAddress,
        ms: Math.round((performance.now() - started) * 1000) / 1000,
      });
    }
    return response;
  };
}

function serviceRoute(req: Request, state: AppState): Response {
  const { responses, zones } = state.data;
  const { path } = requestTarget(req.url);
  const head = req.method === "HEAD";
  if (req.method === "OPTIONS") return responses.preflight();
  if (req.method !== "GET" && !head) return responses.methodNotAllowed("json", METHOD_NOT_ALLOWED());
  if (path === "/health") {
    const body = JSON.stringify({
      status: "ok",
      tzdb: zones.tzdbVersion,
      ip: state.data.manifest.ip ?? null,
      uptime_seconds: Math.floor((Date.now() - state.startedAt) / 1000),
    });
    return new Response(head ? null : body, { headers: responses.withBase({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" }) });
  }
  if (path === "/") {
    const body = JSON.stringify({
      service: "zonetime",
      tzdb: zones.tzdbVersion,
      endpoints: ["/timezone", "/timezone/{area}", "/timezone/{name}", "/ip", "/ip/{address}", "/api/... (WorldTimeAPI profile)"],
    });
    return new Response(head ? null : body, { headers: responses.withBase({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" }) });
  }
  return responses.error(NOT_FOUND(), "json", head);
}

export function internalError(state: AppState): Response {
  return state.data.responses.error(new HttpError("internal", 500, "internal error"), "json", false);
}
