"""The mail tests' SMTP server: aiosmtpd (Debian's python3-aiosmtpd), which
holds a client to RFC 5321, the 1000-byte line limit above all.

    python3 smtpd.py DIR [--auth USER:PASSWORD] [--tls CERT KEY] [--implicit-tls] [--port N]

It listens on 127.0.0.1, on a free port unless --port says which, and
prints the port on the first line of its output. Each message it takes becomes DIR/N.eml, the message
as it came, and DIR/N.json: the envelope (mail_from, rcpt_tos), whether the
session was TLS, and the user that authenticated. The .json is written
last, so a file N.json means N.eml is complete. With --auth, AUTH is
required (and allowed without TLS); with --tls, STARTTLS is offered, or,
with --implicit-tls too, TLS starts with the connection (as on port 465).
"""

import argparse
import asyncio
import json
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Keep:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.directory, str(self.count))
        with open(base + ".eml", "wb") as f:
            f.write(envelope.original_content)
        meta = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            # session.ssl after STARTTLS; the transport's TLS object on a
            # connection that was TLS from the start.
            "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
            "auth": session.auth_data.decode() if isinstance(session.auth_data, bytes) else session.auth_data,
        }
        with open(base + ".json.tmp", "w") as f:
            json.dump(meta, f)
        os.rename(base + ".json.tmp", base + ".json")
        return "250 OK"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("directory")
    p.add_argument("--auth")
    p.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    p.add_argument("--implicit-tls", action="store_true")
    p.add_argument("--port", type=int, default=0)
    args = p.parse_args()

    options = {}
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and data.login.decode() == user and data.password.decode() == password
            return AuthResult(success=ok, auth_data=data.login if ok else None)

        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=False)
    server_tls = None
    if args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls[0], args.tls[1])
        if args.implicit_tls:
            server_tls = context
        else:
            options.update(tls_context=context)

    handler = Keep(args.directory)

    async def serve():
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: SMTP(handler, **options), host="127.0.0.1", port=args.port, ssl=server_tls)
        print(server.sockets[0].getsockname()[1], flush=True)
        await server.serve_forever()

    asyncio.run(serve())


if __name__ == "__main__":
    sys.exit(main())
