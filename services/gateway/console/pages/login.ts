// The login page: a console admin token, typed once, exchanged for a session.
import { html, page } from "../html.js";

export function loginPage(message?: string): string {
  return page(
    "Log in",
    html`<form method="post" action="/login" class="login">
<p>The operator console takes a console admin token (<code>agent-sudo console-token NAME</code> makes one). The tokens that call <code>/exec</code> are not accepted here.</p>
${message ? html`<p class="error" role="alert">${message}</p>` : ""}
<label for="token">Console token</label>
<input id="token" name="token" type="password" autocomplete="off" required maxlength="512">
<button type="submit">Log in</button>
</form>`,
  );
}
