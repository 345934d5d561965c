// Upload progress, for a form with photographs to send (a product's "Add
// photographs"): the workspace's only script. Without it the form posts as
// it is and a phone shows only its own loading bar. With it, the form is
// sent by XMLHttpRequest, whose upload reports its progress to the form's
// .upload-progress and #upload-said, and the server's answer is shown as
// a navigation would show it: a redirect is followed, a page (the form
// again) replaces this one.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const shown = form.querySelector(".upload-progress");
  const files = [...form.querySelectorAll("input[type=file]")].flatMap((input) => [...input.files]);
  if (!shown || files.length === 0) return;
  event.preventDefault();
  const data = new FormData(form);
  if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
  const bar = shown.querySelector("progress");
  const said = form.querySelector("#upload-said");
  const percent = shown.querySelector(".percent");
  const megabytes = files.reduce((sum, file) => sum + file.size, 0) / 1e6;
  const buttons = [...form.querySelectorAll("button")].filter((button) => !button.disabled);
  const busy = (on) => buttons.forEach((button) => (button.disabled = on));
  shown.hidden = false;
  bar.value = 0;
  percent.textContent = "0%";
  said.textContent = `Uploading ${files.length === 1 ? "1 photograph" : `${files.length} photographs`}, ${megabytes.toFixed(1)} MB…`;
  busy(true);
  // The button pressed is disabled: focus goes to what the upload says.
  said.focus();
  const request = new XMLHttpRequest();
  request.open("POST", form.action);
  request.upload.onprogress = (progress) => {
    if (!progress.lengthComputable) return;
    bar.value = progress.loaded / progress.total;
    percent.textContent = `${Math.floor((100 * progress.loaded) / progress.total)}%`;
  };
  request.upload.onload = () => {
    bar.value = 1;
    percent.textContent = "100%";
    said.textContent = "Uploaded: the server is checking the photographs…";
  };
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
    busy(false);
    shown.hidden = true;
    said.textContent =
      "The upload stopped before the server answered: nothing was saved. Check the connection, and that you are still signed in (sign in again in another tab if not), then press the button again; or add fewer photographs at a time.";
    event.submitter?.focus();
  };
  request.send(data);
});
