# Varnish as the shared cache (a CDN's part, on one host) in front of zonetime replicas.
# zonetime says in every answer who may keep it (docs/shared-caches.md): this VCL follows
# that and adds nothing of its own but the three rules below. Run by
# test/deploy/varnish-cache.test.ts (Debian bookworm's varnish 7.1: a replayed mix of every
# route from 50 clients, the hit ratio of each, every answer checked for its client).
#
#   varnishd -F -f server/deploy/varnish.vcl -a :8080 -s malloc,256m
#
# What Varnish does by itself and zonetime relies on:
# - the key is the URL and the Host; `Vary` (Accept-Language on Google's answers that read
#   it, Accept at `/`, Accept-Encoding on the website's files) keeps one copy per value;
# - `no-store` (every answer about now or the caller's address, every error) is never kept;
# - s-maxage is the time to live, stale-while-revalidate the grace;
# - it appends the client's address to X-Forwarded-For: give the replicas
#   TRUST_PROXY=<this host's address> and they see the client, not Varnish.

vcl 4.1;

import directors;

# A replica takes traffic while /health/ready answers 200 (it fails while draining).
probe ready {
    .url = "/health/ready";
    .interval = 2s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
    .initial = 2;
}

backend replica_1 {
    .host = "127.0.0.1";
    .port = "8081";
    .probe = ready;
}

backend replica_2 {
    .host = "127.0.0.1";
    .port = "8082";
    .probe = ready;
}

sub vcl_init {
    new replicas = directors.round_robin();
    replicas.add_backend(replica_1);
    replicas.add_backend(replica_2);
}

sub vcl_recv {
    set req.backend_hint = replicas.backend();
    # /metrics is for the scraper, which reads each replica on its own port: not public.
    if (req.url ~ "^/metrics/?(\?|$)") {
        return (synth(403, "metrics"));
    }
}

sub vcl_backend_response {
    # 1. zonetime marks every answer: one without Cache-Control is not its, and is not kept.
    if (!beresp.http.Cache-Control) {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # 2. An answer right until an instant (the zone's next change) says no
    #    stale-while-revalidate: no grace either (Varnish's default is 10 s past its end).
    if (beresp.http.Cache-Control !~ "stale-while-revalidate") {
        set beresp.grace = 0s;
    }
    # An expired copy is kept an hour more to revalidate with its ETag (a 304 builds nothing).
    set beresp.keep = 1h;
}

sub vcl_deliver {
    # 3. RateLimit counts the budget of the client whose request reached a replica: a copy
    #    served to another client must not carry it (RateLimit-Policy is the same for all).
    if (obj.hits > 0) {
        unset resp.http.RateLimit;
    }
    # What the cache did, for operators and the test: PASS (not kept), HIT, STALE (within
    # stale-while-revalidate, fetched anew behind it) or MISS.
    if (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    } else if (obj.hits > 0 && obj.ttl <= 0s) {
        set resp.http.X-Cache = "STALE";
    } else if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}

# Errors in zonetime's own shape, never Varnish's HTML page. (A {"..."} string ends at the
# first quote and brace, so each body's closing brace is a string of its own.)
sub vcl_synth {
    set resp.http.Content-Type = "application/json; charset=utf-8";
    set resp.http.Cache-Control = "no-store";
    if (resp.reason == "metrics") {
        set resp.body = {"{"error":"/metrics is not served through the cache: scrape each replica on its own port""} + "}";
    } else {
        set resp.body = {"{"error":""} + resp.reason + {"""} + "}";
    }
    return (deliver);
}

sub vcl_backend_error {
    set beresp.http.Content-Type = "application/json; charset=utf-8";
    set beresp.http.Cache-Control = "no-store";
    set beresp.body = {"{"error":"no replica answered""} + "}";
    return (deliver);
}
