// A test that needs a system tool fails with a message saying which and where it comes
// from (scripts/bootstrap.sh --test installs them), never a skip that passes in silence.

export function requireTool(name: string): string {
  // zic lives in /usr/sbin, which a non-root PATH may lack.
  const path = Bun.which(name) ?? Bun.which(name, { PATH: "/usr/sbin:/sbin:/usr/bin:/bin" });
  if (!path) throw new Error(`${name} is not installed: run scripts/bootstrap.sh --test (it installs the tools the tests use from Debian)`);
  return path;
}
