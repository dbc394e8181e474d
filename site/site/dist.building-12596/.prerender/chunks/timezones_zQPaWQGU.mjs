import { a as nextChanges, i as names, l as createComponent, s as placeOf, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { a as renderComponent, f as renderTemplate, h as addAttribute, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
import { t as renderScript } from "./script_BO_3PWg4.mjs";
// src/pages/timezones.astro
var timezones_exports = /* @__PURE__ */ __exportAll({
	default: () => $$Timezones,
	file: () => $$file,
	url: () => $$url
});
var $$Timezones = createComponent(($$result, $$props, $$slots) => {
	const builtAt = Date.now() / 1e3;
	const rows = names.map((name) => ({
		name,
		place: placeOf(name),
		changes: nextChanges[name] ?? []
	}));
	const describe = (c) => c ? `${(/* @__PURE__ */ new Date(c.unixtime * 1e3)).toISOString().slice(0, 16).replace("T", " ")} UTC: UTC${c.utc_offset} ${c.abbreviation}${c.dst ? " (DST)" : ""}` : "none within two years";
	return renderTemplate`${renderComponent($$result, "Base", $$Base, {
		"title": "Timezones",
		"description": "Every IANA timezone name the service answers for, with country, major cities, the current offset and the next clock change."
	}, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1>Timezones</h1>
  <p>All ${names.length} names the service answers for (every Zone and Link of the tz database). Offsets and
  abbreviations come live from this API; countries and cities from
  <a href="https://github.com/vvo/tzdb">@vvo/tzdb</a>. The next change (offset, abbreviation or DST) links to the zone's
  <a href="/guides/dst-changes-ahead/">transitions</a>.</p>
  <p><label for="zone-search">Search </label><input id="zone-search" type="search" placeholder="London, Argentina, Kolkata…" autocomplete="off"></p>
  <p class="muted" id="zone-count" aria-live="polite"></p>
  <div class="table-scroll">
    <table id="zone-table">
      <thead><tr><th>Name</th><th>Country</th><th>Major cities</th><th>Now</th><th>Next change</th></tr></thead>
      <tbody>
        ${rows.map(({ name, place, changes }) => renderTemplate`<tr${addAttribute(name, "data-name")}${addAttribute(JSON.stringify(changes), "data-changes")}${addAttribute(`${name} ${place?.country ?? ""} ${place?.cities.join(" ") ?? ""}`.toLowerCase(), "data-search")}>
            <td><a${addAttribute(`/timezone/${name}`, "href")}>${name}</a></td>
            <td>${place?.country ?? ""}</td>
            <td>${place?.cities.join(", ") ?? ""}</td>
            <td class="now"></td>
            <td class="next"><a${addAttribute(`/timezone/${name}/transitions`, "href")}>${describe(changes.find((c) => c.unixtime > builtAt))}</a></td>
          </tr>`)}
      </tbody>
    </table>
  </div>
` })}

${renderScript($$result, "/work/wt/places/site/src/pages/timezones.astro?astro&type=script&index=0&lang.ts")}`;
}, "/work/wt/places/site/src/pages/timezones.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/timezones.astro";
var $$url = "/timezones";
// \0virtual:astro:page:src/pages/timezones@_@astro
var page = () => timezones_exports;
export { page };
