#!/usr/bin/env python3
"""Publishing and previewing from the workspace, timed (run by
scripts/bench-publish.sh and scripts/bench-preview.sh).

usage: bench-editor.py PORT PASSWORD [publish DATA_DIR|preview|first-preview]

As the studio does it in the Content section, signed in, on the last
product:
- publish: for a change of its description, of the tagline (a text on every
  page) and two 4000x3000 photographs uploaded, given alt text and saved:
  times Publish pressed at once after Save → the first answer of the new
  release; then Save → the draft built ahead of its publishing (its
  release.json in DATA_DIR/releases says so), and Publish pressed then →
  live.
- preview: times from Save (a change of its description) to its page, in
  the preview, showing the change, three times; then from Save of one new
  4000x3000 photograph to the first picture of it the page shows.
- first-preview: the same as preview's first text, once, on a server just
  started.
Prints one line.
"""
import http.client
import re
import subprocess
import sys
import time
import urllib.parse
import uuid

port, password = int(sys.argv[1]), sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "publish"
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
    for name in [k for k in cookies if "preview" in k]:
        del cookies[name]  # the live site, not the draft
    old = live()
    start = time.time()
    status, location, _, _ = post("/studio/content/publish", {})
    assert status == 303, "publish: %d" % status
    while time.time() - start < 1800:
        if live() != old:
            return time.time() - start
        time.sleep(0.05)
    raise SystemExit("no new release within 30 min")


def sign_in():
    status, _, _, _ = post("/studio/sign-in", {"email": "studio", "password": password})
    assert status == 303, "sign-in: %d" % status
    _, _, _, products = request("GET", "/studio/content/products")
    last = re.findall(r'href="/studio/content/products/(\d+)"', products)[-1]
    _, _, _, form = request("GET", "/studio/content/products/" + last)
    index = re.search(r'name="/products/(\d+)/name"', form).group(1)
    return last, "/studio/content/products/" + last, "/products/%s" % index


def save_description(path, prefix):
    """Saves a new ending of the description; returns the text it added."""
    _, _, _, form = request("GET", path)
    description = re.search(r'name="%s/description"[^>]*>([^<]*)<' % prefix, form).group(1)
    added = " Oiled again at %d." % (time.time() * 1000)
    status, _, _, page = post(path, {"_version": field(form, "_version"), prefix + "/description": description + added})
    assert status == 303, "save: %d %s" % (status, page[:2000])
    return added.strip()


def save_tagline():
    _, _, _, form = request("GET", "/studio/content/studio")
    status, _, _, page = post("/studio/content/studio", {"_version": field(form, "_version"), "/tagline": "Made by hand, saved at %d" % (time.time() * 1000)})
    assert status == 303, "save the tagline: %d %s" % (status, page[:2000])


def built_ahead(data_dir, since):
    """Seconds from since until a release of the draft is built (its
    release.json: preview, ready) and queued after since."""
    import glob
    import json
    while time.time() - since < 1800:
        for f in glob.glob(data_dir + "/releases/*/release.json"):
            try:
                r = json.load(open(f))
            except (OSError, ValueError):
                continue
            if r.get("preview") and r.get("status") == "ready" and r.get("builtAt", "") > time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(since)):
                return time.time() - since
        time.sleep(0.05)
    raise SystemExit("the draft was not built within 30 min")


def camera_photos(count):
    photos = []
    for seed in range(1, count + 1):
        data = subprocess.run(["node", "-e", """
import("./scripts/sample-photos.mjs").then(async (m) => {
  const file = process.argv[1]; await m.makePhoto(file, { width: 4000, height: 3000, seed: Number(process.argv[2]) });
  process.stdout.write(require("fs").readFileSync(file));
})""", "/tmp/bench-editor-%d.jpg" % seed, str(int(time.time()) % 1000 + seed)], cwd="web", capture_output=True, check=True).stdout
        photos.append(("photos", ("workshop-%d.jpg" % seed, data)))
    return photos


def save_photos(path, prefix, photos, alt):
    _, _, _, form = request("GET", path)
    status, _, _, page = multipart(path, {"_version": field(form, "_version"), "_action": "upload"}, photos)
    uploads = re.findall(r'name="(%s/images/(\d+)/src)" value="upload:([^"]+)"' % re.escape(prefix), page)
    assert len(uploads) == len(photos), "upload: %d %s" % (status, page[:2000])
    fields = {"_version": field(page, "_version"), "_count%s/images" % prefix: field(page, "_count%s/images" % prefix)}
    for name, i, upload in uploads:
        fields[name] = "upload:" + upload
        fields["%s/images/%s/alt" % (prefix, i)] = "%s %s" % (alt, i)
    status, _, _, page = post(path, fields)
    assert status == 303, "save photographs: %d %s" % (status, page[:3000])


def preview_until(page, found, deadline=600):
    """Asks for the preview of the draft, then page until found(body) is true."""
    status, _, _, body = post("/studio/content/preview", {"page": page})
    assert status == 303, "preview: %d %s" % (status, body[:2000])
    start = time.time()
    while time.time() - start < deadline:
        status, _, _, body = request("GET", page)
        if status == 200 and found(body):
            return body
        time.sleep(0.02)
    raise SystemExit("the preview of %s did not show the change within %d s" % (page, deadline))


def timed_text_preview(path, prefix, page):
    start = time.time()
    added = save_description(path, prefix)
    saved = time.time() - start
    preview_until(page, lambda body: added in body)
    return saved, time.time() - start


def photo_preview(path, prefix, page):
    photos = camera_photos(1)
    alt = "Bench photograph %d" % time.time()
    start = time.time()
    save_photos(path, prefix, photos, alt)
    body = preview_until(page, lambda body: alt in body)
    # The photograph's fallback, named in the page's data just before its alt
    # text; the page's first <img> of it (a thumbnail), else that fallback.
    before = body[:body.index(alt)]
    fallback = re.findall(r'/images/[^"\\ ]+\.960w\.jpg', before)[-1]
    tag = re.search(r'<img[^>]*%s[^>]*>' % re.escape(fallback[:-len(".960w.jpg")]), body)
    src = re.search(r' src="([^"]+)"', tag.group(0)).group(1) if tag else fallback
    while time.time() - start < 600:
        if request("GET", src)[0] == 200:
            return time.time() - start
        time.sleep(0.02)
    raise SystemExit("the preview never answered %s" % src)


def publish_mode():
    data_dir = sys.argv[4]
    _, path, prefix = sign_in()
    photos = camera_photos(4)
    changes = [
        ("a description", lambda: save_description(path, prefix)),
        ("the tagline", save_tagline),
        ("two photographs", lambda: save_photos(path, prefix, [photos.pop(), photos.pop()], "The piece in the workshop, photograph")),
    ]
    out = []
    for label, save in changes:
        save()
        at_once = publish_and_wait()
        start = time.time()
        save()
        ahead = built_ahead(data_dir, start)
        out.append("%s %.2f s (at once %.1f s; built ahead %.1f s after Save)" % (label, publish_and_wait(), at_once, ahead))
    print("workspace Publish → live: " + "; ".join(out))


def preview_mode():
    product, path, prefix = sign_in()
    page = "/product/" + product
    runs = [timed_text_preview(path, prefix, page) for _ in range(3)]
    t_photo = photo_preview(path, prefix, page)
    print("workspace Save → preview shows it: a description %s (of which saving %s); a new 4000×3000 photograph, saved → its first picture shown %.1f s"
          % (", ".join("%.2f s" % total for _, total in runs), ", ".join("%.2f s" % saved for saved, _ in runs), t_photo))


def first_preview_mode():
    product, path, prefix = sign_in()
    saved, total = timed_text_preview(path, prefix, "/product/" + product)
    print("the first preview after a restart: Save → preview shows it %.2f s (of which saving %.2f s)" % (total, saved))


{"publish": publish_mode, "preview": preview_mode, "first-preview": first_preview_mode}[mode]()
