#!/usr/bin/env bash
# Sets up a fresh machine (Debian with Node and npm) for zonetime: Bun, the project's
# pinned packages, and with --test the system tools the tests use as references or
# drivers (zic and zdump from libc-bin, make and awk for IANA's Makefile, openssl, curl,
# python3, wrk, slowhttptest, faketime for the clock-offset clients, gcc, g++ and musl-gcc
# for the device TZ harness and the guide's Arduino sketch, gcc-multilib for the zic of 1993-2004, Debian's Chromium for the
# browser tests, for the deployment tests podman with runc and podman-compose, debootstrap (the stand-in
# base image), catatonit (podman kube play's pause image), redis-server, nginx and varnish, python3-feedparser for the tzdb feeds, and libcjson, python3-requests, jq, PHP (with
# Guzzle), Perl with LWP, CHI and JSON::MaybeXS, a JDK with OkHttp, Gson and OpenCensus jars and Go with uuid, x/time and
# OpenCensus packages for the dialects' third-party clients).
# Idempotent: installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

BUN_VERSION=1.4.4
want_test_tools=false
[ "${1:-}" = "--test" ] && want_test_tools=true

missing=()
need() { command -v "$1" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin" command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need tar tar
if $want_test_tools; then
  need zic libc-bin
  need zdump libc-bin
  need make make
  need awk mawk
  need openssl openssl
  need curl curl
  need jq jq
  need python3 python3
  # The dialects' real clients (test/http/dialects/): SenseCAP's C parser, the Python SDKs' requests.
  need gcc gcc
  [ -f /usr/include/cjson/cJSON.h ] || missing+=(libcjson-dev)
  # The zic of 1993-2004, built from IANA's repository with a 32-bit time_t (gcc -m32) as the
  # reference for the releases of its time (scripts/tzdb/era-zic.ts).
  { [ -f /usr/lib32/crt1.o ] && compgen -G "/usr/lib/gcc/x86_64-linux-gnu/*/32" >/dev/null; } || missing+=(gcc-multilib)
  python3 -c 'import requests' 2>/dev/null || missing+=(python3-requests)
  # The tzdb release feeds are read by a real feed reader (test/http/tzdb-feeds.test.ts).
  /usr/bin/python3 -c 'import feedparser' 2>/dev/null || missing+=(python3-feedparser)
  # ...and by gofeed (Atom and JSON Feed), built offline like Google's Go SDK below.
  [ -d /usr/share/gocode/src/github.com/mmcdole/gofeed ] || missing+=(golang-github-mmcdole-gofeed-dev)
  # namnv609/timezonedb-php-api (Packagist) runs on Debian's PHP, Guzzle and OptionsResolver.
  need php php-cli
  [ -f /usr/share/php/GuzzleHttp/autoload.php ] || missing+=(php-guzzlehttp-guzzle)
  [ -f /usr/share/php/Symfony/Component/OptionsResolver/autoload.php ] || missing+=(php-symfony-options-resolver)
  php -r 'exit(extension_loaded("simplexml") ? 0 : 1);' 2>/dev/null || missing+=(php-xml)
  # CPAN TimeZone::TimeZoneDB (Perl) runs on Debian's Perl modules: its `use` lines, and LWP's https.
  need perl perl
  for module in JSON::MaybeXS=libjson-maybexs-perl LWP::UserAgent=libwww-perl LWP::Protocol::https=liblwp-protocol-https-perl URI=liburi-perl CHI=libchi-perl; do
    perl -M"${module%%=*}" -e 1 2>/dev/null || missing+=("${module#*=}")
  done
  # Google's Java SDK compiles against Debian's jars.
  need javac default-jdk-headless
  for jar in okhttp:libokhttp-java gson:libgoogle-gson-java opencensus-api:libopencensus-java slf4j-api:libslf4j-java org.jetbrains.annotations-java8:libjetbrains-annotations-java; do
    [ -f "/usr/share/java/${jar%%:*}.jar" ] || missing+=("${jar#*:}")
  done
  # Google's Go SDK builds offline (GOPATH mode, no module proxy) against Debian's Go packages.
  need go golang-go
  [ -d /usr/share/gocode/src/github.com/google/uuid ] || missing+=(golang-github-google-uuid-dev)
  [ -d /usr/share/gocode/src/golang.org/x/time/rate ] || missing+=(golang-golang-x-time-dev)
  [ -d /usr/share/gocode/src/go.opencensus.io ] || missing+=(golang-go.opencensus-dev)
  need wrk wrk
  need slowhttptest slowhttptest
  need faketime faketime
  # The device tests build a TZ harness against glibc and musl (test/support/libc-harness.ts).
  need g++ g++
  need musl-gcc musl-tools
  [ -f /usr/include/stdio.h ] || missing+=(libc6-dev)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  need podman podman
  need runc runc
  need debootstrap debootstrap
  need redis-server redis-server
  need redis-cli redis-tools
  need nginx nginx
  # server/deploy/compose.yaml is run as shipped (test/deploy/compose.test.ts).
  need podman-compose podman-compose
  # `podman kube play` builds its pod's pause image around catatonit (test/deploy/kubernetes.test.ts).
  need catatonit catatonit
  # The shared cache in front: server/deploy/varnish.vcl is run as shipped (test/deploy/varnish-cache.test.ts).
  need varnishd varnish
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]} from Debian" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(printf '%s\n' "${missing[@]}" | sort -u) >/dev/null
fi

if ! command -v bun >/dev/null 2>&1 || [ "$(bun --version)" != "$BUN_VERSION" ]; then
  echo "bootstrap: installing bun@$BUN_VERSION from npm" >&2
  npm install --global --silent "bun@$BUN_VERSION" >/dev/null
fi

bun install --frozen-lockfile --silent
