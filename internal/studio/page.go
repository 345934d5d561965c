package studio

// pageHTML is the inbox's one page. html/template escapes everything a
// visitor typed.
const pageHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{if .Login}}Sign in · {{end}}Studio inbox</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #2a2420; background: #fbf7f0; }
  header, main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem; }
  header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; }
  h1 { font-size: 1.5rem; margin: 0; color: #23305e; }
  nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: 0; }
  a { color: #8f3f1f; }
  a[aria-current] { font-weight: 700; color: #23305e; }
  article { background: #fff; border: 1px solid #e8d5b5; border-radius: .375rem; padding: 1rem; margin: 1rem 0; }
  article.handled { opacity: .7; }
  article h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 .75rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .message { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4eadb; padding: .75rem; border-radius: .25rem; margin: 0 0 .75rem; }
  button, input { font: inherit; min-height: 2.5rem; }
  button { padding: .25rem 1rem; border: 2px solid #23305e; border-radius: .375rem; background: #23305e; color: #fff; cursor: pointer; }
  button.quiet { background: transparent; color: #23305e; }
  input { padding: .25rem .5rem; border: 1px solid #b08a3e; border-radius: .375rem; }
  :focus-visible { outline: 3px solid #1a4fd6; outline-offset: 2px; }
  .problem { color: #8f3f1f; font-weight: 600; }
  .exports { display: flex; gap: 1rem; }
  form.login { display: grid; gap: .5rem; max-width: 20rem; }
</style>
</head>
<body>
<header>
  <h1>Studio inbox</h1>
  {{if not .Login}}<form method="post" action="/studio/logout"><button class="quiet">Sign out</button></form>{{end}}
</header>
<main>
{{if .Problem}}<p class="problem" role="alert">{{.Problem}}</p>{{end}}
{{if .Login}}
  <form class="login" method="post" action="/studio/login">
    <input type="text" name="username" value="studio" autocomplete="username" hidden readonly>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
    <button>Sign in</button>
  </form>
{{else}}
  <nav aria-label="Filter">
    <ul>
      <li><a href="/studio" {{if and (eq .Kind "") (not .Spam)}}aria-current="page"{{end}}>All</a></li>
      {{range .Kinds}}<li><a href="/studio?kind={{.}}" {{if and (eq $.Kind (print .)) (not $.Spam)}}aria-current="page"{{end}}>{{kindLabel .}}</a></li>{{end}}
      <li><a href="/studio?spam=1" {{if .Spam}}aria-current="page"{{end}}>Spam</a></li>
    </ul>
  </nav>
  <p class="exports"><a href="/studio/enquiries.csv" download>Enquiries as CSV</a> <a href="/studio/newsletter.csv" download>Newsletter list as CSV</a></p>
  {{range .Enquiries}}
  <article class="{{if .HandledAt}}handled{{end}}" aria-labelledby="enquiry-{{.ID}}">
    <h2 id="enquiry-{{.ID}}">#{{.ID}} · {{kindLabel .Kind}}{{if .ProductName}} · {{.ProductName}}{{end}} · {{.Name}}</h2>
    <dl>
      <dt>Received</dt><dd>{{when .CreatedAt}}</dd>
      {{if .ProductName}}<dt>Product</dt><dd>{{.ProductName}} (#{{.ProductID}})</dd>{{end}}
      {{if .Material}}<dt>Material</dt><dd>{{.Material}}</dd>{{end}}
      {{if .Finish}}<dt>Finish</dt><dd>{{.Finish}}</dd>{{end}}
      <dt>E-mail</dt><dd><a href="mailto:{{.Email}}">{{.Email}}</a></dd>
      {{if .Phone}}<dt>Phone</dt><dd><a href="{{telURL .Phone}}">{{.Phone}}</a></dd>{{end}}
    </dl>
    {{if .Message}}<p class="message">{{.Message}}</p>{{end}}
    {{if .HandledAt}}<p>Handled {{when .HandledAt}}</p>{{else}}
    <form method="post" action="/studio/enquiries/{{.ID}}/handled">
      <input type="hidden" name="return" value="{{$.Return}}">
      <button aria-label="Mark #{{.ID}} handled">Mark handled</button>
    </form>{{end}}
  </article>
  {{else}}
  <p>No enquiries here yet.</p>
  {{end}}
  {{if .Older}}<p><a href="{{.Older}}">Older enquiries</a></p>{{end}}
{{end}}
</main>
</body>
</html>
`
