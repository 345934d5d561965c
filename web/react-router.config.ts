import type { Config } from "@react-router/dev/config";
import catalogue from "../content/catalogue.json";
import { pagePaths, CHAT_SCRIPT_PATH, NOT_FOUND_PATH, SEARCH_INDEX_PATH } from "./app/lib/paths";

// Every route is prerendered to HTML at build time; there is no runtime
// rendering server. The Go server (bin/studio) serves these files.
export default {
  ssr: false,
  prerender: [...pagePaths(catalogue), NOT_FOUND_PATH, SEARCH_INDEX_PATH, CHAT_SCRIPT_PATH],
} satisfies Config;
