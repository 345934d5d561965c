import type { Route } from "./+types/send";
import { sendEnquiry, subscribe, type EnquiryPayload, type SendResult } from "../lib/enquiries";

// Every form of the site sends through here when its script runs: the
// contact form, the quote dialog and the newsletter box submit to this
// route with a fetcher (lib/submission.ts, submitForm), and its action posts
// to the API. A route of its own, with no page, so a submission loads
// nothing else. Without JavaScript the same forms post to the API
// themselves (internal/server/forms.go).
export async function clientAction({ request }: Route.ClientActionArgs): Promise<SendResult> {
  const { form, ...payload } = (await request.json()) as { form: string } & EnquiryPayload;
  return form === "newsletter" ? subscribe(payload.email) : sendEnquiry(payload);
}
