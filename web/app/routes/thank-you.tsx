import { Link } from "react-router";
import type { Route } from "./+types/thank-you";
import { pageMeta } from "../lib/meta";
import { service } from "../lib/content.server";
import { siteOf } from "../lib/site";

// Where a form sent without JavaScript leads (the server answers its post
// with 303 to here): /thank-you after an enquiry, /thank-you/newsletter
// after a sign-up.
export const meta: Route.MetaFunction = ({ params, matches }) => [
  ...pageMeta(siteOf(matches), {
    title: params.form === "newsletter" ? "Thank you for signing up" : "Thank you for your message",
    description: params.form === "newsletter" ? "You are on the studio's newsletter list." : "Your message has reached the studio.",
    path: params.form ? `/thank-you/${params.form}` : "/thank-you",
  }),
  { name: "robots", content: "noindex" },
];

// The reply time (content/service.json), read at prerender time.
export async function loader() {
  return { emailReplyHours: service().emailReplyHours };
}

export default function ThankYou({ params, loaderData: { emailReplyHours } }: Route.ComponentProps) {
  return (
    <div className="page-intro">
      <h1>Thank you</h1>
      {params.form === "newsletter" ? (
        <p>You are on the list: the studio’s news will come to your inbox.</p>
      ) : (
        <p>
          Your message has reached the studio. We answer e-mails within {emailReplyHours} hours on business days,
          at the address you gave.
        </p>
      )}
      <p>
        <Link to="/products">See the products</Link> or go back to the <Link to="/">home page</Link>.
      </p>
    </div>
  );
}
