// Local play on the live page: "play as ..." when the server runs with DEV_LOGIN=1 (a plain form
// to /auth/dev, which redirects back logged in), and "create a lobby" for anyone logged in.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  async function json(path, init) {
    const response = await fetch(path, { credentials: 'same-origin', ...init }).catch(() => null);
    return response && response.ok ? response.json() : null;
  }

  async function start() {
    const [status, me] = await Promise.all([json('/auth/dev/status'), json('/auth/me')]);
    $('dev-login').hidden = !(status && status.enabled) || Boolean(me);
    $('create-lobby').hidden = !me;
  }

  $('create-lobby').addEventListener('click', async () => {
    const response = await fetch('/api/lobbies', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: '6v6' }),
    }).catch(() => null);
    const body = response ? await response.json().catch(() => null) : null;
    if (response && response.ok && body && body.code) {
      location.assign(`/lobby/${encodeURIComponent(body.code)}`);
      return;
    }
    const notice = $('notice');
    notice.textContent = (body && body.error) || 'The lobby could not be created; try again.';
    notice.hidden = false;
  });

  void start();
})();
