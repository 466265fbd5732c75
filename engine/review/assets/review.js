// The review page's script: one item at a time, keyboard first. Every text from an item is put on
// the page with textContent (never as HTML), so a product title such as `<script>` stays text.
// The annotator's name and token come from the link's fragment (#annotator=…&token=…), which the
// browser never sends to the server; the token travels in the Authorization header only.
/* global document, location */
'use strict';

(function () {
  const params = new URLSearchParams(location.hash.slice(1));
  const annotator = params.get('annotator') || '';
  const token = params.get('token');
  const headers = token ? { Authorization: 'Bearer ' + token } : { 'X-Annotator': annotator };
  const $ = (id) => document.getElementById(id);
  const REASON_KEYS = { s: 'second-right-answer', g: 'gold-wrong', w: 'unclear-wording', f: 'offensive', o: 'other' };
  const VALIDITY_KEYS = { v: 'valid', i: 'invalid', u: 'unsure' };

  let total = 0;
  // Blind (review start --blind): the server sends no gold; nothing on the page may show one either.
  let blind = false;
  let position = 0;
  let item = null;
  let marked = new Set();
  let shownAt = 0;
  let busy = false;

  async function api(method, path, body) {
    const init = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    const json = await res.json();
    if (!res.ok) throw new Error(json.error || res.statusText);
    return json;
  }

  function setProgress(done) {
    $('progress').textContent = done + ' / ' + total + ' done';
    $('progress').dataset.done = String(done);
  }

  function text(tag, content, className) {
    const el = document.createElement(tag);
    el.textContent = content;
    if (className) el.className = className;
    return el;
  }

  function showDone() {
    item = null;
    $('card').hidden = true;
    $('status').hidden = false;
    $('status').textContent = 'All ' + total + ' items reviewed. Backspace goes back to the last one.';
    document.body.dataset.position = String(position);
    document.body.dataset.item = '';
  }

  async function load(at) {
    position = Math.max(0, Math.min(at, total));
    $('message').textContent = '';
    if (position >= total) {
      const s = await api('GET', '/api/session');
      setProgress(s.done);
      showDone();
      return;
    }
    const r = await api('GET', '/api/items/' + position);
    item = r.item;
    setProgress(r.done);
    $('task').textContent = item.task;
    $('products').replaceChildren(...item.products.map((p) => text('li', p)));
    $('question').textContent = item.question;
    if (!blind) {
      $('difficulty').textContent = item.difficulty;
      $('relation').textContent = item.relation;
      const gold = text('span', item.gold.length ? item.gold.join(', ') + ' (' + item.goldNote + ')' : item.goldNote);
      gold.id = 'gold';
      $('gold-line').replaceChildren('Item’s answer: ', gold);
    }
    $('options').replaceChildren(
      ...item.options.map((o, i) => {
        const li = document.createElement('li');
        li.dataset.letter = o.letter;
        li.append(text('span', String(i + 1) + ' · ' + o.letter, 'letter'), text('span', o.text));
        if (!blind && item.gold.includes(o.letter)) li.classList.add('gold');
        li.addEventListener('click', () => toggle(i));
        return li;
      }),
    );
    const label = r.label;
    marked = new Set(label ? label.correct : []);
    for (const input of document.querySelectorAll('#validity input'))
      input.checked = !!label && input.value === label.validity;
    for (const input of document.querySelectorAll('#reasons input[type=checkbox]')) {
      input.checked = !!label && label.reasons.includes(input.value);
    }
    $('other-text').value = label ? label.otherText : '';
    paintOptions();
    $('status').hidden = true;
    $('card').hidden = false;
    document.body.dataset.position = String(position);
    document.body.dataset.item = blind ? '' : item.key;
    shownAt = performance.now();
  }

  function paintOptions() {
    for (const li of $('options').children) li.classList.toggle('marked', marked.has(li.dataset.letter));
  }

  function toggle(index) {
    const option = item && item.options[index];
    if (!option) return;
    if (marked.has(option.letter)) marked.delete(option.letter);
    else marked.add(option.letter);
    paintOptions();
  }

  function setValidity(value) {
    for (const input of document.querySelectorAll('#validity input')) input.checked = input.value === value;
  }

  function toggleReason(value) {
    const input = document.querySelector('#reasons input[value="' + value + '"]');
    input.checked = !input.checked;
    if (value === 'other' && input.checked) $('other-text').focus();
  }

  async function save() {
    const validity = document.querySelector('#validity input:checked');
    if (!validity) {
      $('message').textContent = 'Set the validity first: v, i or u.';
      return;
    }
    const reasons = [...document.querySelectorAll('#reasons input[type=checkbox]:checked')].map((i) => i.value);
    await api('PUT', '/api/items/' + position, {
      correct: [...marked].sort(),
      validity: validity.value,
      reasons,
      otherText: reasons.includes('other') ? $('other-text').value : '',
      ms: Math.round(performance.now() - shownAt),
    });
    await load(position + 1);
  }

  async function run(action) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = 'true';
    try {
      await action();
    } catch (err) {
      // Before the first item (a wrong link, the server gone) the card is hidden: say it in the status line.
      if ($('card').hidden) $('status').textContent = 'Cannot load the review: ' + err.message;
      else $('message').textContent = 'Not saved: ' + err.message;
    } finally {
      busy = false;
      document.body.dataset.busy = 'false';
    }
  }

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const inText = e.target === $('other-text');
    if (inText && e.key === 'Escape') return void $('other-text').blur();
    if (e.key === 'Enter') {
      e.preventDefault();
      if (item) void run(save);
      return;
    }
    if (inText) return;
    if (e.key === 'Backspace') {
      e.preventDefault();
      if (position > 0) void run(() => load(position - 1));
      return;
    }
    if (!item) return;
    if (/^[1-9]$/.test(e.key)) toggle(Number(e.key) - 1);
    else if (VALIDITY_KEYS[e.key]) setValidity(VALIDITY_KEYS[e.key]);
    else if (REASON_KEYS[e.key]) {
      e.preventDefault();
      toggleReason(REASON_KEYS[e.key]);
    }
  });

  run(async () => {
    const s = await api('GET', '/api/session');
    blind = s.blind === true;
    $('who').textContent = annotator + (blind ? ' · blind' : '');
    if (blind) {
      $('meta-more').remove();
      $('gold-line').remove();
      // Without the gold there is no "gold wrong": a wrong gold shows as the gold left unmarked.
      document.querySelector('#reasons input[value="gold-wrong"]').parentElement.remove();
      delete REASON_KEYS.g;
      $('reasons').previousElementSibling.querySelector('small').textContent = '(s w f o)';
    }
    total = s.total;
    await load(s.next);
  });
})();
