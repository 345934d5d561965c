#!/usr/bin/env python3
"""Publishing from the workspace, timed (run by scripts/bench-publish.sh).

usage: bench-editor.py PORT PASSWORD

As the studio does it in the Content section: signs in, saves a change of
the last product's description to the draft, presses Publish, and times
from Publish to the first answer of the new release; then the same with two
4000x3000 photographs uploaded, given alt text and saved. Prints one line.
"""
import http.client
import re
import subprocess
import sys
import time
import urllib.parse
import uuid

port, password = int(sys.argv[1]), sys.argv[2]
origin = "http://127.0.0.1:%d" % port
cookies = {}


def request(method, path, body=b"", content_type="application/x-www-form-urlencoded"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    headers = {"Origin": origin, "Cookie": "; ".join("%s=%s" % kv for kv in cookies.items())}
    if method == "POST":
        headers["Content-Type"] = content_type
    conn.request(method, path, body, headers)
    answer = conn.getresponse()
    text = answer.read().decode("utf-8", "replace")
    for name, value in answer.getheaders():
        if name.lower() == "set-cookie":
            k, v = value.split(";")[0].split("=", 1)
            cookies[k] = v
    return answer.status, answer.getheader("Location"), answer.getheader("Studio-Release"), text


def post(path, fields):
    return request("POST", path, urllib.parse.urlencode(fields).encode())


def multipart(path, fields, files):
    boundary = uuid.uuid4().hex
    parts = []
    for k, v in fields.items():
        parts.append(('--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (boundary, k, v)).encode())
    for k, (name, data) in files:
        parts.append(('--%s\r\nContent-Disposition: form-data; name="%s"; filename="%s"\r\nContent-Type: image/jpeg\r\n\r\n' % (boundary, k, name)).encode() + data + b"\r\n")
    parts.append(("--%s--\r\n" % boundary).encode())
    return request("POST", path, b"".join(parts), "multipart/form-data; boundary=" + boundary)


def field(html, name):
    m = re.search(r'name="%s" value="([^"]*)"' % re.escape(name), html)
    return m.group(1) if m else None


def live():
    return request("HEAD", "/")[2]


def publish_and_wait():
    old = live()
    start = time.time()
    status, location, _, _ = post("/studio/content/publish", {})
    assert status == 303, "publish: %d" % status
    while time.time() - start < 1800:
        if live() != old:
            return time.time() - start
        time.sleep(0.05)
    raise SystemExit("no new release within 30 min")


status, _, _, _ = post("/studio/sign-in", {"email": "studio", "password": password})
assert status == 303, "sign-in: %d" % status
_, _, _, products = request("GET", "/studio/content/products")
last = re.findall(r'href="/studio/content/products/(\d+)"', products)[-1]
path = "/studio/content/products/" + last
_, _, _, form = request("GET", path)
index = re.search(r'name="/products/(\d+)/name"', form).group(1)
prefix = "/products/%s" % index

# A text: the description, saved, then published.
description = re.search(r'name="%s/description"[^>]*>([^<]*)<' % prefix, form).group(1)
status, _, _, page = post(path, {"_version": field(form, "_version"), prefix + "/description": description + " Oiled again at %d." % time.time()})
assert status == 303, "save: %d %s" % (status, page[:2000])
t_text = publish_and_wait()

# Two camera-sized photographs: uploaded, given alt text, saved, published.
photos = []
for seed in (1, 2):
    data = subprocess.run(["node", "-e", """
import("./scripts/sample-photos.mjs").then(async (m) => {
  const file = process.argv[1]; await m.makePhoto(file, { width: 4000, height: 3000, seed: Number(process.argv[2]) });
  process.stdout.write(require("fs").readFileSync(file));
})""", "/tmp/bench-editor-%d.jpg" % seed, str(int(time.time()) % 1000 + seed)], cwd="web", capture_output=True, check=True).stdout
    photos.append(("photos", ("workshop-%d.jpg" % seed, data)))
_, _, _, form = request("GET", path)
status, _, _, page = multipart(path, {"_version": field(form, "_version"), "_action": "upload"}, photos)
uploads = re.findall(r'name="(%s/images/(\d+)/src)" value="upload:([^"]+)"' % re.escape(prefix), page)
assert len(uploads) == 2, "upload: %d %s" % (status, page[:2000])
fields = {"_version": field(page, "_version"), "_count%s/images" % prefix: field(page, "_count%s/images" % prefix)}
for name, i, upload in uploads:
    fields[name] = "upload:" + upload
    fields["%s/images/%s/alt" % (prefix, i)] = "The piece in the workshop, photograph %s" % i
status, _, _, page = post(path, fields)
assert status == 303, "save photographs: %d %s" % (status, page[:3000])
t_photos = publish_and_wait()
print("workspace Publish → live: a description %.1f s, two 4000×3000 photographs %.1f s" % (t_text, t_photos))
