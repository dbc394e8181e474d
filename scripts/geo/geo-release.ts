// Which boundary data the coordinates table is built from, apart from geo-tz itself so that
// `bun run start` can check the manifest without loading geo-tz into the server's process.

export const GEO_TZ_PACKAGE = "geo-tz";
/** The version this build was checked against, and the boundary data it ships:
 *  geo-tz 8.1.9 is evansiroky/node-geo-tz PR #211, "Update to 2026d data" (2026-09-16). */
export const GEO_TZ_VERSION = "8.1.9";
export const BOUNDARY_RELEASE = "2026d";
