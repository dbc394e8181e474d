import { c as createAstro, i as names, l as createComponent, r as manifest, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { a as renderComponent, f as renderTemplate, h as addAttribute, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
import { t as renderScript } from "./script_BO_3PWg4.mjs";
import { t as $$Snippet } from "./Snippet_BIIdQoC0.mjs";
// src/pages/index.astro
var pages_exports = /* @__PURE__ */ __exportAll({
	default: () => $$Index,
	file: () => $$file,
	url: () => ""
});
createAstro("https://zonetime.example");
var $$Index = createComponent(($$result, $$props, $$slots) => {
	const Astro = $$result.createAstro($$props, $$slots);
	Astro.self = $$Index;
	const site = (Astro.site?.toString() ?? "/").replace(/\/$/, "");
	const curl = `curl ${site}/timezone/Europe/London\ncurl ${site}/ip/8.8.8.8\ncurl ${site}/timezone/Asia/Kathmandu.txt`;
	const js = `const response = await fetch("${site}/timezone/America/Havana");\nconst now = await response.json();\nconsole.log(now.datetime, now.abbreviation, now.dst);`;
	return renderTemplate`${renderComponent($$result, "Base", $$Base, {
		"title": "The time, exactly",
		"data-astro-cid-lcdefpme": true
	}, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1 data-astro-cid-lcdefpme>The time in any timezone, exactly right</h1>
  <p data-astro-cid-lcdefpme>zonetime answers <strong data-astro-cid-lcdefpme>what time it is</strong>, with the UTC offset, abbreviation and DST state, for any
  IANA timezone, IP address or point on Earth, as JSON over HTTPS with CORS open to your browser code. It follows the newest tz
  database release (<strong data-astro-cid-lcdefpme>${manifest.tzdb.version}</strong>), not the months-old rules inside browsers and
  runtimes. Free and anonymous; WorldTimeAPI clients switch by changing the host.</p>

  <section class="clocks" data-astro-cid-lcdefpme>
    <div class="clock" id="search-clock" data-state="idle" data-astro-cid-lcdefpme>
      <h2 data-astro-cid-lcdefpme><label for="search-input" data-astro-cid-lcdefpme>Time in…</label></h2>
      <form id="search-form" role="search" autocomplete="off" data-astro-cid-lcdefpme>
        <input id="search-input" type="search" placeholder="a city: Paris, São Paulo, new yo…" maxlength="100" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="search-suggestions" spellcheck="false" data-astro-cid-lcdefpme>
        <ul id="search-suggestions" role="listbox" hidden data-astro-cid-lcdefpme></ul>
      </form>
      <p class="time" data-role="time" data-astro-cid-lcdefpme>—</p>
      <p class="meta muted" data-role="meta" data-astro-cid-lcdefpme>Type a place; or ask <a href="/places?q=Paris" data-astro-cid-lcdefpme>/places?q=Paris</a>.</p>
    </div>
    <div class="clock" id="your-clock" data-state="loading" data-astro-cid-lcdefpme>
      <h2 data-astro-cid-lcdefpme>Your time</h2>
      <p class="time" data-role="time" data-astro-cid-lcdefpme>—</p>
      <p class="meta muted" data-role="meta" data-astro-cid-lcdefpme>Live with JavaScript; or ask <a href="/ip" data-astro-cid-lcdefpme>/ip</a> yourself.</p>
    </div>
    <div class="clock" id="zone-clock" data-state="loading" data-astro-cid-lcdefpme>
      <h2 data-astro-cid-lcdefpme><label for="zone-input" data-astro-cid-lcdefpme>A zone of your choice</label></h2>
      <input id="zone-input" list="zone-names" value="Asia/Kathmandu" autocomplete="off" spellcheck="false" data-astro-cid-lcdefpme>
      <datalist id="zone-names" data-astro-cid-lcdefpme>${names.map((n) => renderTemplate`<option${addAttribute(n, "value")} data-astro-cid-lcdefpme></option>`)}</datalist>
      <p class="time" data-role="time" data-astro-cid-lcdefpme>—</p>
      <p class="meta muted" data-role="meta" data-astro-cid-lcdefpme>Live with JavaScript; or open <a href="/timezone/Asia/Kathmandu" data-astro-cid-lcdefpme>/timezone/Asia/Kathmandu</a>.</p>
    </div>
    <div class="clock" id="place-clock" data-state="loading" data-astro-cid-lcdefpme>
      <h2 data-astro-cid-lcdefpme>A place</h2>
      <form id="place-form" data-astro-cid-lcdefpme>
        <label data-astro-cid-lcdefpme>Latitude <input id="place-lat" name="lat" value="51.5074" inputmode="decimal" autocomplete="off" size="9" required data-astro-cid-lcdefpme></label>
        <label data-astro-cid-lcdefpme>Longitude <input id="place-lng" name="lng" value="-0.1278" inputmode="decimal" autocomplete="off" size="9" required data-astro-cid-lcdefpme></label>
        <button type="submit" data-astro-cid-lcdefpme>Show</button>
        <button type="button" id="place-locate" data-astro-cid-lcdefpme>Use my location</button>
      </form>
      <p class="time" data-role="time" data-astro-cid-lcdefpme>—</p>
      <p class="meta muted" data-role="meta" data-astro-cid-lcdefpme>Live with JavaScript; or open <a href="/coordinates/51.5074,-0.1278" data-astro-cid-lcdefpme>/coordinates/51.5074,-0.1278</a>.</p>
    </div>
  </section>

  <h2 data-astro-cid-lcdefpme>Try it</h2>
  ${renderComponent($$result, "Snippet", $$Snippet, {
		"id": "example-curl",
		"label": "curl",
		"text": curl,
		"data-astro-cid-lcdefpme": true
	})}
  ${renderComponent($$result, "Snippet", $$Snippet, {
		"id": "example-js",
		"label": "JavaScript",
		"text": js,
		"data-astro-cid-lcdefpme": true
	})}
  <p data-astro-cid-lcdefpme>Every endpoint, parameter and field: <a href="/docs/" data-astro-cid-lcdefpme>API reference</a>. From coordinates:${" "}
  <a href="/guides/time-at-a-place/" data-astro-cid-lcdefpme>the time at a place</a>. Moving from WorldTimeAPI:${" "}
  <a href="/guides/migration/" data-astro-cid-lcdefpme>change the host</a>.</p>
` })}

${renderScript($$result, "/work/wt/places/site/src/pages/index.astro?astro&type=script&index=0&lang.ts")}`;
}, "/work/wt/places/site/src/pages/index.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/index.astro";
// \0virtual:astro:page:src/pages/index@_@astro
var page = () => pages_exports;
export { page };
