// The browser tests' mail server: it takes every mail the studio's server
// sends (SMTP on E2E_SMTP_PORT, no TLS, no sign-in) and lists them, parsed,
// as JSON at http://127.0.0.1:E2E_MAIL_PORT/mails (newest last), so a test
// can follow a link that was mailed. Its SMTP side is nodemailer's
// smtp-server, its parsing mailparser. RCPT TO an address at
// bounce.invalid is refused for good (550), as a mailbox that does not
// exist is.
import { createServer } from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const smtpPort = Number(process.env.E2E_SMTP_PORT);
const httpPort = Number(process.env.E2E_MAIL_PORT);
const mails = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (address.address.endsWith("@bounce.invalid")) {
      const err = new Error("5.1.1 no such mailbox");
      err.responseCode = 550;
      return callback(err);
    }
    callback();
  },
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((parsed) => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: parsed.from?.text ?? "",
          replyTo: parsed.replyTo?.text ?? "",
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html || "",
          headers: Object.fromEntries([...parsed.headers].map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
          attachments: parsed.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.size })),
        });
        callback();
      })
      .catch(callback);
  },
});
smtp.listen(smtpPort, "127.0.0.1");

createServer((req, res) => {
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify(req.url === "/mails" ? mails : { ok: true }));
}).listen(httpPort, "127.0.0.1");
