import { N as InvalidComponentArgs, Y as UnavailableAstroGlobal, Z as AstroError, et as ASTRO_GENERATOR, f as renderTemplate, h as addAttribute, l as renderSlot, m as renderHead } from "./server_C3X2lkR6.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getTimeZones } from "@vvo/tzdb";
// \0rolldown/runtime.js
var __defProp = Object.defineProperty;
var __exportAll = (all, no_symbols) => {
	let target = {};
	for (var name in all) __defProp(target, name, {
		get: all[name],
		enumerable: true
	});
	if (!no_symbols) __defProp(target, Symbol.toStringTag, { value: "Module" });
	return target;
};
// ../node_modules/astro/dist/runtime/server/astro-component.js
function validateArgs(args) {
	if (args.length !== 3) return false;
	if (!args[0] || typeof args[0] !== "object") return false;
	return true;
}
function baseCreateComponent(cb, moduleId, propagation) {
	const name = moduleId?.split("/").pop()?.replace(".astro", "") ?? "";
	const fn = (...args) => {
		if (!validateArgs(args)) throw new AstroError({
			...InvalidComponentArgs,
			message: InvalidComponentArgs.message(name)
		});
		return cb(...args);
	};
	Object.defineProperty(fn, "name", {
		value: name,
		writable: false
	});
	fn.isAstroComponentFactory = true;
	fn.moduleId = moduleId;
	fn.propagation = propagation;
	return fn;
}
function createComponentWithOptions(opts) {
	return baseCreateComponent(opts.factory, opts.moduleId, opts.propagation);
}
function createComponent(arg1, moduleId, propagation) {
	if (typeof arg1 === "function") return baseCreateComponent(arg1, moduleId, propagation);
	else return createComponentWithOptions(arg1);
}
// ../node_modules/astro/dist/runtime/server/astro-global.js
function createError(name) {
	return new AstroError({
		...UnavailableAstroGlobal,
		message: UnavailableAstroGlobal.message(name)
	});
}
function createAstro(site) {
	return {
		get site() {
			console.warn(`Astro.site inside getStaticPaths is deprecated and will be removed in a future major version of Astro. Use import.meta.env.SITE instead`);
			return site ? new URL(site) : void 0;
		},
		get generator() {
			console.warn(`Astro.generator inside getStaticPaths is deprecated and will be removed in a future major version of Astro.`);
			return ASTRO_GENERATOR;
		},
		get callAction() {
			throw createError("callAction");
		},
		get clientAddress() {
			throw createError("clientAddress");
		},
		get cookies() {
			throw createError("cookies");
		},
		get csp() {
			throw createError("csp");
		},
		get currentLocale() {
			throw createError("currentLocale");
		},
		get getActionResult() {
			throw createError("getActionResult");
		},
		get isPrerendered() {
			throw createError("isPrerendered");
		},
		get locals() {
			throw createError("locals");
		},
		get originPathname() {
			throw createError("originPathname");
		},
		get params() {
			throw createError("params");
		},
		get preferredLocale() {
			throw createError("preferredLocale");
		},
		get preferredLocaleList() {
			throw createError("preferredLocaleList");
		},
		get props() {
			throw createError("props");
		},
		get redirect() {
			throw createError("redirect");
		},
		get request() {
			throw createError("request");
		},
		get response() {
			throw createError("response");
		},
		get rewrite() {
			throw createError("rewrite");
		},
		get routePattern() {
			throw createError("routePattern");
		},
		get self() {
			throw createError("self");
		},
		get slots() {
			throw createError("slots");
		},
		get url() {
			throw createError("url");
		},
		get session() {
			throw createError("session");
		},
		get cache() {
			throw createError("cache");
		},
		get logger() {
			throw createError("logger");
		}
	};
}
// src/lib/data.ts
var dir = process.env.ZONETIME_SITE_DATA ?? join(process.cwd(), "..", "generated", "site-data");
var read = (name) => JSON.parse(readFileSync(join(dir, name), "utf8"));
var manifest = read("manifest.json");
var openapi = read("openapi.json");
var names = read("names.json");
var examples = read("examples.json");
/** Per name, its clock changes in the two years after the build, earliest first. */
var nextChanges = read("next-changes.json");
/** Country and major cities for a name, from @vvo/tzdb (never its offsets: those are a snapshot). */
var places = /* @__PURE__ */ new Map();
for (const zone of getTimeZones({ includeUtc: true })) for (const name of zone.group) places.set(name, {
	country: zone.countryName,
	cities: zone.mainCities.slice(0, 3)
});
var placeOf = (name) => places.get(name) ?? null;
var $$Base = createComponent(($$result, $$props, $$slots) => {
	const Astro = $$result.createAstro($$props, $$slots);
	Astro.self = $$Base;
	const { title, description = "The current time in any IANA timezone or at any IP address, exact to the newest tz database release." } = Astro.props;
	const nav = [
		["/", "Home"],
		["/timezones/", "Timezones"],
		["/docs/", "API reference"],
		["/guides/", "Guides"],
		["/status/", "Status"],
		["/attribution/", "Attribution"],
		["/terms/", "Terms"]
	];
	const here = Astro.url.pathname;
	return renderTemplate`<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${title} · zonetime</title>
    <meta name="description"${addAttribute(description, "content")}>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  ${renderHead($$result)}</head>
  <body>
    <header>
      <a class="brand" href="/">zonetime</a>
      <nav aria-label="Site">
        ${nav.map(([href, label]) => renderTemplate`<a${addAttribute(href, "href")}${addAttribute(here === href ? "page" : void 0, "aria-current")}>${label}</a>`)}
      </nav>
    </header>
    <main>${renderSlot($$result, $$slots["default"])}</main>
    <footer>
      <p>Free for personal and commercial use; a link back is asked for, not enforced (<a href="/attribution/">how</a>, <a href="/terms/">terms</a>).</p>
      <p>Time data: <a href="https://www.iana.org/time-zones">IANA tz database</a> ${manifest.tzdb.version}.${" "}
        <a${addAttribute(manifest.ip.credit.url, "href")}>${manifest.ip.credit.text}</a>.${" "}
        Timezone boundaries: <a${addAttribute(manifest.geo.credit.url, "href")}>timezone-boundary-builder</a>, OpenStreetMap data (ODbL).</p>
    </footer>
  </body>
</html>`;
}, "/work/wt/places/site/src/layouts/Base.astro", void 0);
export { nextChanges as a, createAstro as c, names as i, createComponent as l, examples as n, openapi as o, manifest as r, placeOf as s, $$Base as t, __exportAll as u };
