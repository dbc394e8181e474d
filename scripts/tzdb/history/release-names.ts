// tzdb release names as IANA wrote them. From 1996l on a release is a four-digit year and a
// letter ("2011k"); before, the year had two digits and the first release of a year could
// have no letter ("92", "93", "93b" ... "96k"). Both sort by when they were made once the
// two-digit year is read as 19xx, which plain string order does not do ("96k" > "2006a").

/** A data release's name, either spelling. */
export const RELEASE_NAME = /^(?:\d{4}[a-z]{1,2}|\d\d[a-z]?)$/;

/** The name as a key in release order: "96k" -> "1996k", "93" -> "1993" (before "1993b"). */
export function releaseOrderKey(release: string): string {
  return /^\d\d(?:[a-z]|$)/.test(release) ? `19${release}` : release;
}

/** Oldest first. */
export function compareReleases(a: string, b: string): number {
  const [ka, kb] = [releaseOrderKey(a), releaseOrderKey(b)];
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
