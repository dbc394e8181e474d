// Stand-ins for the registry images server/deploy/compose.yaml names besides ours (Redis,
// nginx), for a machine that reaches Debian's mirror but no container registry: the same
// software at the same version from Debian bookworm's packages (the official images are
// built on bookworm too), imported under the official image's name, so that the compose
// file runs as shipped. Each recipe checks that Debian's version is the one the tag names,
// and sets what the compose file relies on from the official image (its command, user,
// stop signal). Made only when the engine has no such image and cannot pull it.
//   bun scripts/image/stand-in-services.ts [image...]     (default: compose.yaml's)

import { chownSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { containerEngine, engineRun, hasImage, type ContainerEngine } from "./container-engine.ts";
import { importDebianRoot, installedVersion } from "./debian-root.ts";

interface Recipe {
  /** The official image's name, its version as the tag's capture group. */
  pattern: RegExp;
  /** The Debian package and the prefix its version must have (from the tag). */
  pkg: string;
  debianVersion: (tagVersion: string) => string;
  changes: string[];
  prepare: (rootfs: string) => void;
}

/** A user's uid and gid in a root filesystem's /etc/passwd. */
function ids(rootfs: string, user: string): [number, number] {
  const line = readFileSync(join(rootfs, "etc", "passwd"), "utf8").split("\n").find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no user ${user} in the stand-in`);
  const [, , uid, gid] = line.split(":");
  return [Number(uid), Number(gid)];
}

// The official images set PATH; `podman run` supplies a default where an image has none, but
// `podman kube play` does not ("redis-server": executable file not found in $PATH).
const OFFICIAL_PATH = "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const RECIPES: Recipe[] = [
  {
    // docker-library/redis: redis-server as user redis in /data.
    pattern: /^(?:docker\.io\/)?(?:library\/)?redis:(\d+\.\d+\.\d+)-bookworm$/,
    pkg: "redis-server",
    debianVersion: (v) => `5:${v}-`,
    changes: [OFFICIAL_PATH, "WORKDIR /data", "USER redis", 'CMD ["redis-server"]', "EXPOSE 6379"],
    prepare(rootfs) {
      mkdirSync(join(rootfs, "data"), { recursive: true });
      const [uid, gid] = ids(rootfs, "redis");
      chownSync(join(rootfs, "data"), uid, gid);
    },
  },
  {
    // docker-library/nginx: `nginx -g 'daemon off;'`, logs to the container's output, SIGQUIT to stop gracefully.
    pattern: /^(?:docker\.io\/)?(?:library\/)?nginx:(\d+\.\d+)$/,
    pkg: "nginx",
    debianVersion: (v) => `${v}.`,
    changes: [OFFICIAL_PATH, 'CMD ["nginx", "-g", "daemon off;"]', "STOPSIGNAL SIGQUIT", "EXPOSE 80"],
    prepare(rootfs) {
      for (const [log, to] of [["access.log", "/dev/stdout"], ["error.log", "/dev/stderr"]] as const) {
        rmSync(join(rootfs, "var", "log", "nginx", log), { force: true });
        symlinkSync(to, join(rootfs, "var", "log", "nginx", log));
      }
    },
  },
];

export function standInRecipe(image: string): Recipe | null {
  return RECIPES.find((r) => r.pattern.test(image)) ?? null;
}

/** Makes `image` from Debian unless the engine has it or can pull it; true when it made it. */
export function ensureServiceImage(engine: ContainerEngine, image: string): boolean {
  if (hasImage(engine, image)) return false;
  if (engineRun(engine, ["pull", "--quiet", image]).ok) return false;
  const recipe = standInRecipe(image);
  if (recipe === null) throw new Error(`${image} cannot be pulled and there is no stand-in recipe for it`);
  const tagVersion = recipe.pattern.exec(image)![1]!;
  console.error(`image: ${image} cannot be pulled; making a stand-in from Debian's ${recipe.pkg}`);
  importDebianRoot(engine, image, [recipe.pkg], recipe.changes, (rootfs) => {
    const version = installedVersion(rootfs, recipe.pkg);
    if (version === null || !version.startsWith(recipe.debianVersion(tagVersion))) {
      throw new Error(`Debian has ${recipe.pkg} ${version}, not the ${tagVersion} that ${image} names`);
    }
    recipe.prepare(rootfs);
  });
  return true;
}

/** The images compose.yaml runs that the repository does not build. */
export function composeServiceImages(composeFile: string): string[] {
  const { services } = Bun.YAML.parse(readFileSync(composeFile, "utf8")) as { services: Record<string, { image: string }> };
  return [...new Set(Object.values(services).map((s) => s.image))].filter((i) => !/^(localhost\/)?zonetime:/.test(i));
}

if (import.meta.main) {
  const engine = containerEngine();
  if (!engine) throw new Error("neither podman nor docker is installed");
  const images = process.argv.length > 2 ? process.argv.slice(2) : composeServiceImages(join(import.meta.dir, "..", "..", "server", "deploy", "compose.yaml"));
  for (const image of images) console.log(`${image}: ${ensureServiceImage(engine, image) ? "stand-in made" : "present"}`);
}
