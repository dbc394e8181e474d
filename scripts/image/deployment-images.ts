// The images server/deploy/'s files run besides zonetime's own (Redis in kubernetes.yaml,
// Redis and nginx in compose.yaml), named as a registry pull would name them, so that one
// local image serves both files: `redis:7.0.15-bookworm` is `docker.io/library/redis:7.0.15-bookworm`.
// `bun run image` makes each of them that the engine lacks and cannot pull
// (stand-in-services.ts: from Debian's package of the same version).

import { readFileSync } from "node:fs";
import { join } from "node:path";

const DEPLOY = join(import.meta.dir, "..", "..", "server", "deploy");
export const KUBERNETES = join(DEPLOY, "kubernetes.yaml");
export const COMPOSE = join(DEPLOY, "compose.yaml");

const isOurs = (image: string) => /^(localhost\/)?zonetime:/.test(image);

/** `redis:7` -> `docker.io/library/redis:7`; `nginx/x:1` -> `docker.io/nginx/x:1`; a name with a registry host stays. */
export function fullyQualified(image: string): string {
  const first = image.split("/")[0]!;
  if (image.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost")) return image;
  return image.includes("/") ? `docker.io/${image}` : `docker.io/library/${image}`;
}

/** Every container image the Kubernetes manifests name (Deployments and Pods). */
export function kubernetesImages(file = KUBERNETES): string[] {
  const docs = Bun.YAML.parse(readFileSync(file, "utf8")) as any[];
  return docs.flatMap((d) => {
    const pod = d.kind === "Pod" ? d.spec : d.spec?.template?.spec;
    return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].map((c: { image: string }) => c.image);
  });
}

/** Every image compose.yaml's services run. */
export function composeImages(file = COMPOSE): string[] {
  const { services } = Bun.YAML.parse(readFileSync(file, "utf8")) as { services: Record<string, { image: string }> };
  return Object.values(services).map((s) => s.image);
}

/** The images the deployment files need that the repository does not build, fully qualified, each once. */
export function serviceImages(): string[] {
  return [...new Set([...kubernetesImages(), ...composeImages()].filter((i) => !isOurs(i)).map(fullyQualified))].sort();
}
