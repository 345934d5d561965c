import type { Config } from "@react-router/dev/config";
import { products } from "./app/lib/catalogue";
import { pagePaths, NOT_FOUND_PATH } from "./app/lib/paths";

// Every route is prerendered to HTML at build time; there is no runtime
// rendering server. The Go server (bin/studio) serves these files.
export default {
  ssr: false,
  prerender: [...pagePaths(products), NOT_FOUND_PATH],
} satisfies Config;
