import data from "../../../content/site.json";
import { whatsappNumber } from "./facts";

// The studio's facts (content/site.json), shared with the Go server.
export type Site = typeof data;
export const site: Site = data;

export function whatsappUrl(text: string): string {
  return `https://wa.me/${whatsappNumber(site)}?text=${encodeURIComponent(text)}`;
}
