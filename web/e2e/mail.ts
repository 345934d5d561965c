import { expect } from "@playwright/test";

// The mails e2e/mailsink.mjs got, as it lists them.
export type Mail = {
  to: string[];
  from: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string; // "" for a mail in plain text alone
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; size: number }[];
};

// The address the mailed links lead to: the mailed server's own
// (PUBLIC_URL in playwright.config.ts), whatever content's baseUrl says.
export const mailedServer = `http://127.0.0.1:${process.env.E2E_MAILED_PORT}`;

async function mails(): Promise<Mail[]> {
  const res = await fetch(`http://127.0.0.1:${process.env.E2E_MAIL_PORT}/mails`);
  return (await res.json()) as Mail[];
}

// lastMailTo waits for a mail to address whose subject matches, and
// returns the newest such.
export async function lastMailTo(address: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      found = (await mails()).filter((m) => m.to.includes(address) && subject.test(m.subject)).at(-1);
      return found !== undefined;
    }, { message: `a mail to ${address} about ${subject}`, timeout: 60_000 })
    .toBe(true);
  return found!;
}

// linkIn is the first address in a mail's text that starts with prefix.
export function linkIn(mail: Mail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  expect(link, `a link starting ${prefix} in:\n${mail.text}`).toBeTruthy();
  return link!;
}
