import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { itemEventParams, track } from "../../lib/analytics";
import type { ProductCardData } from "../../lib/catalogue";
import { REFUSED, setInShortlist } from "../../lib/shortlist/items";
import { ADD_PARAMS, addedLine } from "../../lib/shortlist/add";

/**
 * ?add=<id>&material=<name>&finish=<name>: the product page's Add to
 * shortlist sent as a form (it works before the page's script runs). The
 * line is checked against the catalogue (lib/shortlist/add.ts) and added;
 * what happened is said through setNotice. The address then drops the
 * three, so a reload or Back does not add it again.
 */
export function useAddedLine(products: ProductCardData[], setNotice: (notice: string) => void) {
  const [params, setParams] = useSearchParams();
  const asked = params.get(ADD_PARAMS.add);

  useEffect(() => {
    if (asked === null) return;
    const line = addedLine(params, products);
    if ("problem" in line) setNotice(line.problem);
    else {
      const { product, material, finish } = line;
      const what = `${product.name} in ${material}, ${finish}`;
      const outcome = setInShortlist(product, true, material, finish);
      if (outcome === "saved") track("add_to_wishlist", itemEventParams(product));
      setNotice(outcome === "saved" ? `${what} is added to your shortlist.` : outcome === "there" ? `${what} is on your shortlist already.` : REFUSED[outcome]);
    }
    setParams(
      (p) => {
        for (const name of Object.values(ADD_PARAMS)) p.delete(name);
        return p;
      },
      { replace: true, preventScrollReset: true },
    );
    // Only the address's own ?add= starts this, once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [asked]);
}
