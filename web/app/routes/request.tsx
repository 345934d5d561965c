import { useLayoutEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/request";
import { FormPost, Honeypot } from "../lib/submission";
import { Field, FieldError, FormProblem } from "../components/Field";
import { SenderFields } from "../components/SenderFields";
import type { QuoteKind } from "../lib/enquiries";
import { productData, productEntry, removedProduct } from "../lib/catalogue.server";
import { GoneNotice, goneMeta } from "../components/product/GoneNotice";
import { LIMITS } from "../lib/enquiries";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";
import { useEarlyInput } from "../lib/useEarlyInput";
import { requestPath } from "../lib/paths";
import "../components/Field.css";
import "../components/QuoteDialog.css";
import "./request.css";

// A product's quote or customisation request as a page of its own:
// /product/1/quote and /product/1/customize. The product page's Get Quote
// and Customize lead here before its scripts run (or without them); with
// them, they open the quote dialog instead. The form is a plain post to
// this page's own address, which the server answers with the thank-you
// page, or this page again with the problems shown (so the address stays
// this page's).
// A removed product's requests say it is gone, as its page does (GoneNotice).
export async function loader({ params }: Route.LoaderArgs) {
  const id = Number(params.id);
  const entry = productEntry(id);
  const kind = params.kind;
  if (kind !== "quote" && kind !== "customize") throw new Response("No such page", { status: 404 });
  if (!entry) {
    const gone = removedProduct(id);
    if (!gone) throw new Response("No such page", { status: 404 });
    return { gone };
  }
  return { product: productData(entry), kind: kind as QuoteKind };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [{ title: "Not found" }];
  if (data.gone) return goneMeta(siteOf(matches), data.gone);
  const { product, kind } = data;
  return [
    ...pageMeta(siteOf(matches), {
      title: requestTitle(kind, product.name),
      description: `Ask ${kind === "quote" ? "for a quote for" : "to customize"} ${product.name}, ${product.type}.`,
      path: `/product/${product.id}/${kind}`,
    }),
    // A form, not a page to find: the product's own page is the one to index.
    { name: "robots", content: "noindex" },
  ];
};

function requestTitle(kind: QuoteKind, name: string) {
  return kind === "quote" ? `Get a quote for ${name}` : `Customize ${name}`;
}

type Options = { material: string; finish: string };

// The material and finish chosen on the product page, which its options
// form sends here as ?material=…&finish=… (routes/product.tsx). The page
// is prerendered with the first options, and the server marks the chosen
// ones in what it sends (internal/server/choices.go); hydration renders the
// first ones too, so nothing mismatches, and this then takes the URL's, the
// only ones of the product's options, before the page is painted. A choice
// the visitor changed on this page before the scripts ran wins over both
// (useEarlyInput, after).
function useChosenOptions(product: { material: string[]; finish: string[] }, form: React.RefObject<HTMLFormElement | null>) {
  const [options, setOptions] = useState<Options>({ material: product.material[0]!, finish: product.finish[0]! });
  const { search } = useLocation();
  useLayoutEffect(() => {
    const query = new URLSearchParams(search);
    const material = query.get("material");
    const finish = query.get("finish");
    setOptions((o) => ({
      material: material && product.material.includes(material) ? material : o.material,
      finish: finish && product.finish.includes(finish) ? finish : o.finish,
    }));
  }, [search, product]);
  useEarlyInput(form, (name, value) => {
    if (name === "material" || name === "finish") setOptions((o) => ({ ...o, [name]: value }));
  });
  const choose = (name: keyof Options) => (event: React.ChangeEvent<HTMLSelectElement>) => setOptions((o) => ({ ...o, [name]: event.target.value }));
  return { options, choose };
}

export default function RequestPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.gone) return <GoneNotice product={loaderData.gone} />;
  return <RequestForm key={loaderData.product.id} product={loaderData.product} kind={loaderData.kind} />;
}

type RequestFormProps = Exclude<Route.ComponentProps["loaderData"], { gone: object }>;

function RequestForm({ product, kind }: RequestFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const { options, choose } = useChosenOptions(product, formRef);
  const heading = requestTitle(kind, product.name);
  return (
    <div className="request-page container">
      <p>
        <Link to={`/product/${product.id}`}>Back to {product.name}</Link>
      </p>
      <h1>{heading}</h1>
      <p className="quote-dialog__product">
        {product.name}, {product.type}
      </p>
      <form ref={formRef} className="quote-dialog__form" method="post" action={requestPath(product.id, kind)} data-form={kind} aria-label={heading} noValidate>
        <FormPost kind={kind} productId={product.id} />
        <FormProblem />
        <div className="quote-dialog__options">
          <div className="field">
            <label htmlFor="request-material">Material</label>
            <select id="request-material" name="material" aria-describedby="request-material-error" value={options.material} onChange={choose("material")}>
              {product.material.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
            <FieldError id="request-material-error" />
          </div>
          <div className="field">
            <label htmlFor="request-finish">Finish</label>
            <select id="request-finish" name="finish" aria-describedby="request-finish-error" value={options.finish} onChange={choose("finish")}>
              {product.finish.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
            <FieldError id="request-finish-error" />
          </div>
        </div>
        <SenderFields phone />
        <Field
          label="Message"
          optional
          multiline
          name="message"
          rows={4}
          maxLength={LIMITS.message}
          hint={kind === "quote" ? "Size, quantity, where it will go." : "What would you change: size, material, finish, use?"}
        />
        <Honeypot />
        <div className="quote-dialog__actions">
          <button type="submit" className="button">
            {kind === "quote" ? "Request a quote" : "Send request"}
          </button>
        </div>
      </form>
    </div>
  );
}
