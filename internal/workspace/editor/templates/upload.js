// A product's photographs and a page's pictures, sent one by one: the
// workspace's only script. Without it the form posts its files all in one
// request, and a phone shows only its own loading bar. With it, each file
// chosen in any of the form's file inputs is checked here first (empty,
// HEIC, SVG, over the size limit: each said before a byte of it is sent),
// then sent on its own to /studio/content/photos (uploads.go), with its
// progress; one that fails is said beside its name, with a "Try again"
// that sends it alone, and the others are kept. Once all have arrived, the
// form is sent with their names (each in a field named by its input's
// data-sent-as: _uploaded, _uploaded/home/hero/src) in place of the files, and the
// server's answer is shown as a navigation would show it: a redirect is
// followed, a page (the form again) replaces this one.
(() => {
  const SEND_TO = "/studio/content/photos";
  const form = document.querySelector("form.content-form");
  const inputs = [...(form?.querySelectorAll("input[type=file][data-sent-as]") ?? [])];
  const shown = form?.querySelector(".upload-progress");
  if (inputs.length === 0 || !shown) return;
  const bar = shown.querySelector("progress");
  const percent = shown.querySelector(".percent");
  const said = form.querySelector("#upload-said");
  // Each file chosen: { file, input (the one it was chosen in), row, state
  // (its words), status: "refused" | "waiting" | "sending" | "sent" | "failed" }.
  const photos = [];
  const lists = new Map(); // each input's list of its files, beside it, made at the first
  let submitter = null; // the button that sent them: the form goes as if it were pressed
  let busy = false;
  let disabled = []; // the form's buttons that wait while photographs are sent

  const mb = (bytes) => (bytes / 1e6).toFixed(1).replace(/\.0$/, "");
  const count = (n) => (n === 1 ? "1 photograph" : `${n} photographs`);

  // What keeps a file from being sent, said before any of it is, in the
  // server's own words for a form sent without this script (edit.PhotoWords,
  // written in here where the script is served).
  const WORDS = /* edit.PhotoWords */ {};
  const say = (kind, file) => WORDS[kind].replace("{name}", () => `“${file.name}”`).replace("{size}", () => `${mb(file.size)} MB`);
  function problemOf(file, maxBytes) {
    if (file.size === 0) return say("empty", file);
    if (/^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name)) return say("heic", file);
    if (file.type === "image/svg+xml" || /\.svg$/i.test(file.name)) return say("svg", file);
    if (file.size > maxBytes) return say("large", file);
    return "";
  }

  function add({ file, input }) {
    let list = lists.get(input);
    if (!list) {
      list = document.createElement("ul");
      list.className = "sending";
      list.setAttribute("aria-label", input.multiple ? "Photographs chosen" : "Picture chosen");
      input.closest(".field").append(list);
      lists.set(input, list);
    }
    const row = document.createElement("li");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = file.name;
    const state = document.createElement("span");
    state.id = `sending-${photos.length}`;
    row.append(name, " ", state);
    list.append(row);
    const photo = { file, input, row, state };
    photos.push(photo);
    const problem = problemOf(file, Number(input.dataset.maxBytes));
    show(photo, problem ? "refused" : "waiting", problem || "Waiting");
    return photo;
  }

  function show(photo, status, words) {
    photo.status = status;
    photo.state.textContent = words;
    photo.state.className = status === "refused" || status === "failed" ? "problem" : "meta";
    photo.row.querySelector("button")?.remove();
    if (status !== "failed") return;
    const again = document.createElement("button");
    again.type = "button";
    again.className = "quiet";
    again.textContent = "Try again";
    again.setAttribute("aria-label", `Try again: ${photo.file.name}`);
    again.setAttribute("aria-describedby", photo.state.id);
    again.disabled = busy;
    again.addEventListener("click", () => run([photo]));
    photo.row.append(again);
  }

  function setBusy(on) {
    busy = on;
    if (on) {
      disabled = [...form.querySelectorAll("button")].filter((button) => !button.disabled);
      disabled.forEach((button) => (button.disabled = true));
    } else {
      disabled.forEach((button) => (button.disabled = false));
      lists.forEach((list) => list.querySelectorAll("button").forEach((button) => (button.disabled = false)));
      disabled = [];
    }
  }

  function progress(fraction) {
    bar.value = fraction;
    percent.textContent = `${Math.floor(100 * fraction)}%`;
  }

  // Sends the photographs of batch that wait or failed, one after the other.
  async function run(batch) {
    if (busy) return;
    const sending = batch.filter((photo) => photo.status === "waiting" || photo.status === "failed");
    const total = sending.reduce((sum, photo) => sum + photo.file.size, 0);
    setBusy(true);
    shown.hidden = sending.length === 0;
    progress(0);
    // The button pressed is disabled: focus goes to what the upload says.
    said.focus();
    let done = 0;
    for (const [i, photo] of sending.entries()) {
      said.textContent =
        sending.length === 1
          ? `Uploading “${photo.file.name}”, ${mb(total)} MB…`
          : `Uploading photograph ${i + 1} of ${sending.length}, “${photo.file.name}” (${mb(total)} MB in all)…`;
      await send(photo, (loaded) => progress((done + loaded) / total));
      done += photo.file.size;
    }
    setBusy(false);
    finish(batch);
  }

  // Sends one photograph; it ends sent, refused (the server's words) or
  // failed (to be tried again).
  function send(photo, progressed) {
    return new Promise((resolve) => {
      const { file } = photo;
      let loaded = 0;
      show(photo, "sending", "0%");
      const data = new FormData();
      data.append("photos", file); // the one file field of /studio/content/photos
      const request = new XMLHttpRequest();
      request.open("POST", SEND_TO);
      request.upload.onprogress = (event) => {
        if (!event.lengthComputable) return;
        loaded = Math.min(file.size, event.loaded);
        photo.state.textContent = `${Math.floor((100 * event.loaded) / event.total)}%`;
        progressed(loaded);
      };
      request.onload = () => {
        let answer = null;
        try {
          answer = JSON.parse(request.responseText);
        } catch {
          // not the server's answer: the sign-in page, or a proxy's error page
        }
        if (request.status === 200 && answer?.upload) {
          const kept = document.createElement("input");
          kept.type = "hidden";
          kept.name = photo.input.dataset.sentAs;
          kept.value = answer.upload;
          form.append(kept);
          show(photo, "sent", answer.note ? `Uploaded. ${answer.note}` : "Uploaded");
        } else if (answer?.problem) {
          show(photo, answer.retry ? "failed" : "refused", answer.problem);
        } else if (!request.responseURL.endsWith(SEND_TO)) {
          show(photo, "failed", "You have been signed out: sign in again in another tab, then try again.");
        } else {
          show(photo, "failed", `The server could not take it just now (${request.status}): try again.`);
        }
        resolve();
      };
      request.onerror = request.onabort = request.ontimeout = () => {
        show(photo, "failed", `The connection stopped after ${mb(loaded)} of ${mb(file.size)} MB: try again.`);
        resolve();
      };
      request.send(data);
    });
  }

  // Once a batch is done: the form goes on if all of it arrived and nothing
  // waits to be tried again; otherwise the page says what is left to do.
  function finish(batch) {
    const failed = photos.filter((photo) => photo.status === "failed");
    if (failed.length === 0 && batch.every((photo) => photo.status === "sent")) {
      post();
      return;
    }
    shown.hidden = true;
    const sent = photos.filter((photo) => photo.status === "sent").length;
    const refused = photos.filter((photo) => photo.status === "refused").length;
    const words = [sent === 0 ? "No photograph was uploaded." : `${sent} of ${count(photos.length)} uploaded.`];
    if (failed.length === 1) words.push("1 stopped: press its “Try again”.");
    if (failed.length > 1) words.push(`${failed.length} stopped: press “Try again” beside each.`);
    if (refused === 1) words.push("1 was not sent: see why beside it.");
    if (refused > 1) words.push(`${refused} were not sent: see why beside each.`);
    if (sent > 0) words.push(`Press “${submitter?.textContent ?? "Save"}” to add ${sent === 1 ? "it" : "them"} to the form.`);
    said.textContent = words.join(" ");
    (failed[0]?.row.querySelector("button") ?? said).focus();
  }

  // Sends the form, with the names of the photographs sent ahead, as if
  // its button were pressed.
  function post() {
    setBusy(true);
    shown.hidden = false;
    progress(1);
    said.textContent = "Uploaded: the server is checking the photographs…";
    const data = new FormData(form);
    if (submitter?.name) data.append(submitter.name, submitter.value);
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.onload = () => {
      if (request.responseURL && request.responseURL !== form.action) {
        location.assign(request.responseURL);
        return;
      }
      document.open();
      document.write(request.responseText);
      document.close();
      // Where a new page starts, and what a screen reader is told first:
      // its notice or its problems.
      scrollTo(0, 0);
      const news = document.querySelector("main [role=alert], main [role=status]:not(:empty)");
      if (news) {
        news.tabIndex = -1;
        news.focus();
      }
    };
    request.onerror = () => {
      setBusy(false);
      shown.hidden = true;
      said.textContent =
        "The form stopped before the server answered; its photographs are uploaded. Check the connection, and that you are still signed in (sign in again in another tab if not), then press the button again.";
      submitter?.focus();
    };
    request.send(data);
  }

  form.addEventListener("submit", (event) => {
    const chosen = inputs.flatMap((input) => [...input.files].map((file) => ({ file, input })));
    if (busy) {
      event.preventDefault();
      return;
    }
    if (chosen.length === 0 && !photos.some((photo) => photo.status === "sent")) return; // nothing to send: the form posts as it is
    event.preventDefault();
    submitter = event.submitter;
    if (chosen.length === 0) {
      post();
      return;
    }
    inputs.forEach((input) => (input.value = "")); // sent one by one, not again with the form
    run(chosen.map(add));
  });
})();
