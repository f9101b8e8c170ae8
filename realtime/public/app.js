// The live lobby page: `/` lists the open lobbies, `/lobby/<code>` shows one lobby. Everything
// after the first paint arrives over socket.io; commands go out as `lobby:command` events.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const lobbyPath = location.pathname.match(/^\/lobby\/([^/]+)\/?$/);
  const state = {
    code: lobbyPath ? decodeURIComponent(lobbyPath[1]) : null,
    me: null,
    lobby: null,
    chatIds: new Set(),
  };

  // ---- small DOM helpers ---------------------------------------------------------------------

  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === false || value === null || value === undefined) continue;
      if (name === 'onclick') node.addEventListener('click', value);
      else if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function userName(user) {
    const name = el('span', { class: 'user', text: user.username, 'data-user-id': user.id });
    if (user.name_color) name.style.color = user.name_color;
    return name;
  }

  function show(id, visible) {
    $(id).hidden = !visible;
  }

  let noticeTimer;
  function notice(message) {
    const box = $('notice');
    box.textContent = message;
    box.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => (box.hidden = true), 6000);
  }

  function setConnection(label) {
    const badge = $('connection');
    badge.textContent = label;
    badge.dataset.state = label;
  }

  // ---- the socket ------------------------------------------------------------------------------

  const socket = io({ withCredentials: true });

  socket.on('connect', () => {
    setConnection('live');
    // A recovered connection kept its rooms and got the missed events replayed; anything else
    // starts over from a snapshot, which the version numbers make safe.
    if (!socket.recovered) subscribe();
  });
  socket.on('disconnect', () => setConnection('reconnecting'));
  socket.on('connect_error', (error) => {
    setConnection('offline');
    if (error.data && error.data.error) notice(error.data.error);
  });

  function subscribe() {
    if (state.code) subscribeLobby();
    else subscribeList();
  }

  // ---- the list of open lobbies ----------------------------------------------------------------

  function subscribeList() {
    socket.emit('lobbies:subscribe', (answer) => {
      if (answer.error) return notice(answer.error);
      renderList(answer.lobbies);
    });
  }

  socket.on('lobbies:update', ({ lobbies }) => {
    if (!state.code) renderList(lobbies);
  });

  function renderList(lobbies) {
    const rows = lobbies.map((lobby) =>
      el(
        'tr',
        { 'data-code': lobby.code },
        el('td', {}, el('a', { href: `/lobby/${encodeURIComponent(lobby.code)}`, text: lobby.name })),
        el('td', { text: lobby.format }),
        el('td', { text: lobby.phase }),
        el('td', { text: `${lobby.players} (${lobby.slots_filled}/${lobby.slots_total} seated)` }),
        el('td', { text: lobby.map_pool.join(', ') }),
      ),
    );
    $('lobby-rows').replaceChildren(...rows);
    show('no-lobbies', lobbies.length === 0);
  }

  // ---- one lobby -------------------------------------------------------------------------------

  // Patches: after the snapshot each change arrives as a few RFC 6902 ops on the version held
  // (a 4 KB lobby for a changed vote costs ~100 bytes). One that does not follow on from the
  // version held (a lost message) means: take a fresh snapshot. Events still in flight while a
  // snapshot is asked for are older than it, and dropped.
  let syncing = false;

  function subscribeLobby() {
    syncing = true;
    socket.emit('lobby:subscribe', { code: state.code, patches: true }, (answer) => {
      syncing = false;
      if (answer.error) {
        notice(answer.status === 404 ? `There is no lobby ${state.code}.` : answer.error);
        return;
      }
      state.lobby = null;
      applyLobby(answer.lobby);
      loadChatHistory();
    });
  }

  // A whole lobby (the server sends one when it cannot vouch for a patch's base) replaces what is
  // held if it is newer; a patch applies only on top of its base version.
  socket.on('lobby:update', ({ code, version, lobby }) => {
    if (code === state.code && !syncing && state.lobby && version > state.lobby.version) applyLobby(lobby);
  });
  socket.on('lobby:patch', ({ code, version, base_version, ops }) => {
    if (code !== state.code || syncing || !state.lobby) return;
    if (base_version === state.lobby.version) applyLobby(applyPatch(state.lobby, ops));
    else if (version > state.lobby.version) subscribeLobby();
  });

  /** RFC 6902 add/remove/replace (all the server sends), as realtime/json-patch.ts does. */
  function applyPatch(document, ops) {
    let root = document;
    for (const op of ops) {
      if (op.path === '') {
        root = op.value;
        continue;
      }
      const keys = op.path.slice(1).split('/').map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
      const last = keys.pop();
      let parent = root;
      for (const key of keys) parent = parent[key];
      if (Array.isArray(parent)) {
        const index = last === '-' ? parent.length : Number(last);
        if (op.op === 'add') parent.splice(index, 0, op.value);
        else if (op.op === 'remove') parent.splice(index, 1);
        else parent[index] = op.value;
      } else if (op.op === 'remove') delete parent[last];
      else parent[last] = op.value;
    }
    return root;
  }

  socket.on('lobby:chat', ({ code, message }) => {
    if (code === state.code) addChat(message);
  });

  function applyLobby(lobby) {
    if (state.lobby && lobby.version < state.lobby.version) return;
    state.lobby = lobby;
    renderLobby();
  }

  function mySlot(lobby) {
    if (!state.me) return null;
    for (const team of ['red', 'blu']) {
      const slot = lobby.teams[team].find((s) => s.user && s.user.id === state.me.id);
      if (slot) return { team, slot };
    }
    return null;
  }

  function renderLobby() {
    const lobby = state.lobby;
    const me = state.me;
    const seat = mySlot(lobby);
    const inPool = Boolean(me && lobby.pool.some((user) => user.id === me.id));
    const isHost = Boolean(me && lobby.host_id === me.id);
    const captainOf = me ? ['red', 'blu'].find((team) => lobby.captains[team] === me.id) : undefined;
    const myTurn = lobby.phase === 'drafting' && captainOf !== undefined && lobby.turn === captainOf;
    const open = lobby.phase !== 'ended' && lobby.phase !== 'cancelled';

    document.title = `${lobby.name} - League`;
    $('lobby-name').textContent = lobby.name;
    $('lobby-code').textContent = lobby.code;
    $('lobby-format').textContent = lobby.format;
    $('lobby-phase').textContent = lobby.phase.replace('_', ' ');
    $('lobby-phase').dataset.phase = lobby.phase;
    $('lobby-version').textContent = String(lobby.version);
    $('lobby-deadline').textContent = lobby.ready_check_deadline
      ? ` · ready check until ${new Date(lobby.ready_check_deadline).toLocaleTimeString()}`
      : '';

    for (const team of ['red', 'blu']) {
      const captain = [...lobby.teams[team].map((s) => s.user), ...lobby.pool].find((u) => u && u.id === lobby.captains[team]);
      $(`captain-${team}`).textContent = captain ? `captain ${captain.username}` : '';
      $(`team-${team}`).replaceChildren(...lobby.teams[team].map((slot) => renderSlot(slot)));
    }

    $('turn').textContent = lobby.phase === 'drafting' && lobby.turn ? `${lobby.turn.toUpperCase()} picks` : '';
    $('pool').replaceChildren(
      ...lobby.pool.map((user) =>
        el('li', {}, userName(user), el('span', { class: 'muted', text: ` ${user.elo}` }), myTurn ? commandButton('Pick', 'pick', { user_id: user.id }) : null),
      ),
    );

    $('votes').replaceChildren(
      ...lobby.map_pool.map((map) =>
        el(
          'li',
          { 'data-map': map },
          el('span', { class: 'map', text: map }),
          el('span', { class: 'count', text: String(lobby.votes[map] ?? 0) }),
          me && open ? commandButton('Vote', 'vote-map', { map }) : null,
        ),
      ),
    );

    const inLobby = Boolean(seat) || inPool;
    const readyPhase = lobby.phase === 'drafting' || lobby.phase === 'ready_check';
    show('actions', Boolean(me) && open);
    for (const button of $('actions').querySelectorAll('button')) {
      const visible = {
        join: !inLobby && lobby.phase === 'gathering',
        leave: inLobby,
        ready: Boolean(seat) && readyPhase && !seat.slot.ready,
        'keep-ready': Boolean(seat) && readyPhase && seat.slot.ready,
        'start-draft': isHost && lobby.phase === 'gathering',
      }[button.dataset.command];
      button.hidden = !visible;
    }
    show('chat-form', Boolean(me) && open);
  }

  function renderSlot(slot) {
    return el(
      'li',
      { class: slot.user ? 'taken' : 'open', 'data-ready': slot.ready },
      el('span', { class: 'class', text: slot.class }),
      slot.user ? userName(slot.user) : el('span', { class: 'muted', text: 'open' }),
      slot.ready ? el('span', { class: 'ready', text: 'ready' }) : null,
    );
  }

  function commandButton(label, type, body) {
    return el('button', { type: 'button', class: 'small', onclick: () => command(type, body), text: label });
  }

  async function loadChatHistory() {
    const response = await fetch(`/api/lobbies/${encodeURIComponent(state.code)}/chat`).catch(() => null);
    if (!response || !response.ok) return;
    const { messages } = await response.json();
    for (const message of messages) addChat(message);
  }

  function addChat(message) {
    if (state.chatIds.has(message.id)) return;
    state.chatIds.add(message.id);
    const item = el(
      'li',
      { 'data-id': message.id },
      el('time', { datetime: message.created_at, text: new Date(message.created_at).toLocaleTimeString() }),
      userName(message.user),
      el('span', { class: 'text', text: message.message }),
    );
    const list = $('chat');
    const later = [...list.children].find((li) => Number(li.dataset.id) > message.id);
    list.insertBefore(item, later ?? null);
    list.scrollTop = list.scrollHeight;
  }

  // ---- commands --------------------------------------------------------------------------------

  function command(type, body = {}) {
    return new Promise((resolve) => {
      socket.timeout(10_000).emit('lobby:command', { code: state.code, type, ...body }, (timedOut, answer) => {
        if (timedOut) notice('The server did not answer; try again.');
        else if (answer.error) notice(answer.status === 401 ? 'Log in to take part.' : answer.error);
        resolve(timedOut ? null : answer);
      });
    });
  }

  $('actions').addEventListener('click', (event) => {
    const type = event.target instanceof HTMLButtonElement ? event.target.dataset.command : undefined;
    if (type) command(type);
  });

  $('chat-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('chat-input');
    const message = input.value.trim();
    if (!message) return;
    const answer = await command('chat', { message });
    if (answer && answer.ok) input.value = '';
  });

  // ---- start -----------------------------------------------------------------------------------

  async function loadMe() {
    const response = await fetch('/auth/me', { credentials: 'same-origin' }).catch(() => null);
    state.me = response && response.ok ? await response.json() : null;
    $('me').replaceChildren(state.me ? userName(state.me) : '');
    show('login', !state.me);
    show('logout', Boolean(state.me));
    if (state.lobby) renderLobby();
  }

  show(state.code ? 'lobby-view' : 'lobby-list', true);
  void loadMe();
})();
