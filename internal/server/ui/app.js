// The page of omctl server: it reads the API and the test controls with
// the credentials the browser already holds for this origin, and follows
// /_omctl/stream to show each change as it happens. Data is written into
// the page as text only, never as markup.
"use strict";

// Absolute URLs on the origin: a page opened as http://KEY:SECRET@host/
// has its credentials in its own URL, and fetch() refuses a URL made
// relative to it; the origin never carries them.
const API = location.origin + "/api/public/v1.0";
const CONTROLS = location.origin + "/_omctl";
const PAGE = 500; // items a list shows, newest first

const $ = (id) => document.getElementById(id);
const state = {
  projects: new Map(), // id -> name
  alerts: new Map(), // id -> alert
  notes: new Map(), // id -> notification log entry
  requests: [],
  now: null, // the server's clock, as last read
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k in e && k !== "list") e[k] = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

function problem(msg) {
  const p = $("problem");
  p.textContent = msg || "";
  p.hidden = !msg;
}

async function call(method, url, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const detail = (data && (data.detail || data.reason)) || res.statusText;
    throw new Error(`${method} ${url.replace(location.origin, "")}: ${res.status} ${detail}`);
  }
  return data;
}

// newest reads the newest PAGE items of a list (lists are oldest first).
async function newest(url) {
  const sep = url.includes("?") ? "&" : "?";
  const first = await call("GET", `${url}${sep}itemsPerPage=${PAGE}&pageNum=1`);
  const total = first.totalCount || 0;
  if (total <= PAGE) return { items: first.results.slice().reverse(), total };
  const last = Math.ceil(total / PAGE);
  const pages = await Promise.all([last - 1, last].map((n) => call("GET", `${url}${sep}itemsPerPage=${PAGE}&pageNum=${n}`)));
  const items = pages.flatMap((p) => p.results).reverse().slice(0, PAGE);
  return { items, total };
}

// keepFocus re-renders a card in place, handing focus back to the control
// that had it.
function replaceKeepingFocus(old, card) {
  const focused = old && old.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
  if (old) old.replaceWith(card);
  if (focused) {
    const again = card.querySelector(`[data-focus="${focused}"]`);
    if (again) again.focus();
  }
}

function flash(card) {
  card.classList.add("fresh");
  setTimeout(() => card.classList.remove("fresh"), 3000);
}

// ---- Alerts

function alertTarget(a) {
  const parts = [a.hostnameAndPort, a.replicaSetName, a.clusterName, a.hostId, a.clusterId, a.sourceTypeName, a.typeName]
    .filter(Boolean);
  if (a.metricName) {
    const v = a.currentValue ? ` = ${a.currentValue.number} ${a.currentValue.units}` : "";
    parts.unshift(`${a.metricName}${v}`);
  }
  return parts.length ? parts.join(" · ") : "the project";
}

// isGlobal tells a global alert, which carries its project's groupId too,
// by its self link.
function isGlobal(a) {
  return (a.links || []).some((l) => l.rel === "self" && l.href.includes("/globalAlerts/"));
}

function projectOf(a) {
  return a.__global ? "global" : a.groupId;
}

function projectName(a) {
  if (a.__global) return a.groupId ? `global alert · ${state.projects.get(a.groupId) || a.groupId}` : "global alert";
  return state.projects.get(a.groupId) || a.groupId;
}

function shown(a) {
  const p = $("filter-project").value;
  const s = $("filter-status").value;
  return (!p || projectOf(a) === p) && (!s || a.status === s);
}

function copyButton(text, label) {
  return el("button", {
    type: "button", "data-focus": `copy:${text}`, "aria-label": `Copy ${label}`,
    onclick: async (ev) => {
      const b = ev.currentTarget;
      try {
        await navigator.clipboard.writeText(text);
        b.textContent = "Copied";
      } catch (_) {
        const range = document.createRange();
        range.selectNodeContents(b.previousSibling);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        b.textContent = "Selected";
      }
      setTimeout(() => { b.textContent = "Copy"; }, 1500);
    },
  }, "Copy");
}

function ackControls(a) {
  if (a.__global) return null;
  const id = a.id;
  if (a.acknowledgedUntil) {
    return el("div", { class: "actions" },
      el("button", { type: "button", "data-focus": `unack:${id}`, onclick: () => acknowledge(a, null) }, "Unacknowledge"));
  }
  if (a.status !== "OPEN" && a.status !== "TRACKING") return null;
  const span = el("select", { "aria-label": `Acknowledge alert ${id} for`, "data-focus": `span:${id}` },
    el("option", { value: "1" }, "1 hour"), el("option", { value: "24" }, "1 day"),
    el("option", { value: "168" }, "1 week"), el("option", { value: String(100 * 365 * 24) }, "100 years"));
  const comment = el("input", { placeholder: "comment", "aria-label": `Comment for alert ${id}`, size: 12, "data-focus": `comment:${id}` });
  return el("div", { class: "actions" }, span, comment,
    el("button", { type: "button", "data-focus": `ack:${id}`, onclick: () => acknowledge(a, Number(span.value), comment.value) }, "Acknowledge"));
}

function alertCard(a) {
  const ack = a.acknowledgedUntil
    ? `until ${a.acknowledgedUntil} by ${a.acknowledgingUsername || "?"}${a.acknowledgementComment ? ` — ${a.acknowledgementComment}` : ""}`
    : "no";
  return el("li", { "data-id": a.id, "data-status": a.status },
    el("div", { class: "head" },
      el("span", { class: `badge s-${a.status}` }, a.status),
      el("strong", {}, a.eventTypeName),
      el("span", { class: "muted" }, projectName(a))),
    el("dl", {},
      el("dt", {}, "id"), el("dd", {}, el("span", { class: "id" }, el("code", {}, a.id), copyButton(a.id, `alert id ${a.id}`))),
      el("dt", {}, "target"), el("dd", {}, alertTarget(a)),
      el("dt", {}, "configuration"), el("dd", {}, a.alertConfigId ? el("code", {}, a.alertConfigId) : "none"),
      el("dt", {}, "acknowledged"), el("dd", {}, ack),
      el("dt", {}, "created"), el("dd", {}, a.created || ""),
      el("dt", {}, "updated"), el("dd", {}, a.updated || ""),
      a.resolved ? [el("dt", {}, "resolved"), el("dd", {}, a.resolved)] : null,
      a.lastNotified ? [el("dt", {}, "notified"), el("dd", {}, a.lastNotified)] : null),
    ackControls(a));
}

function sortedAlerts() {
  return [...state.alerts.values()].filter(shown)
    .sort((x, y) => (y.created || "").localeCompare(x.created || "") || y.id.localeCompare(x.id));
}

function renderAlerts() {
  const list = $("alert-list");
  const alerts = sortedAlerts().slice(0, PAGE);
  list.replaceChildren(...alerts.map(alertCard));
  $("alerts-count").textContent = countText(alerts.length, state.alertsTotal, "alert");
}

function countText(n, total, noun) {
  const s = (k) => `${k} ${noun}${k === 1 ? "" : "s"}`;
  return total > n ? `${s(n)} shown, the newest of ${total}` : s(n);
}

// upsertAlert shows an alert the stream sent, in its place.
function upsertAlert(a, global) {
  if (global) a.__global = true;
  const known = state.alerts.has(a.id);
  state.alerts.set(a.id, a);
  if (!known) state.alertsTotal = (state.alertsTotal || 0) + 1;
  const list = $("alert-list");
  const old = list.querySelector(`li[data-id="${CSS.escape(a.id)}"]`);
  if (!shown(a)) {
    if (old) old.remove();
    return;
  }
  const card = alertCard(a);
  flash(card);
  if (old) {
    replaceKeepingFocus(old, card);
    return;
  }
  const before = [...list.children].find((li) => {
    const b = state.alerts.get(li.dataset.id);
    return b && (b.created || "") <= (a.created || "");
  });
  list.insertBefore(card, before || null);
  $("alerts-count").textContent = countText(list.children.length, state.alertsTotal, "alert");
}

async function loadProjects() {
  const { items } = await newest(`${API}/groups`);
  const select = $("filter-project");
  const chosen = select.value;
  state.projects.clear();
  for (const p of items.slice().reverse()) state.projects.set(p.id, p.name);
  select.replaceChildren(el("option", { value: "" }, "All projects"), el("option", { value: "global" }, "Global alerts"),
    ...[...state.projects].map(([id, name]) => el("option", { value: id }, name)));
  select.value = chosen;
}

async function loadAlerts() {
  const p = $("filter-project").value;
  const s = $("filter-status").value;
  const q = s ? `?status=${encodeURIComponent(s)}` : "";
  const sources = [];
  if (!p || p === "global") sources.push([`${API}/globalAlerts${q}`, true]);
  for (const id of state.projects.keys()) {
    if (!p || p === id) sources.push([`${API}/groups/${encodeURIComponent(id)}/alerts${q}`, false]);
  }
  const lists = await Promise.all(sources.map(([url, global]) => newest(url).then((r) => ({ ...r, global }))));
  state.alerts.clear();
  state.alertsTotal = 0;
  for (const { items, total, global } of lists) {
    state.alertsTotal += total;
    for (const a of items) {
      if (global) a.__global = true;
      state.alerts.set(a.id, a);
    }
  }
  renderAlerts();
}

async function acknowledge(a, hours, comment) {
  const body = {};
  if (hours) {
    const from = state.now ? Date.parse(state.now) : Date.now();
    body.acknowledgedUntil = new Date(from + hours * 3600e3).toISOString().replace(/\.\d{3}Z$/, "Z");
    if (comment) body.acknowledgementComment = comment;
  }
  try {
    const updated = await call("PATCH", `${API}/groups/${encodeURIComponent(a.groupId)}/alerts/${encodeURIComponent(a.id)}`, body);
    upsertAlert(updated, false);
    problem("");
  } catch (e) {
    problem(e.message);
  }
}

// ---- Notifications

const ADDRESS = ["emailAddress", "mobileNumber", "webhookUrl", "channelName", "notificationToken", "roomName", "username",
  "teamId", "microsoftTeamsWebhookUrl", "datadogRegion", "opsGenieRegion", "victorOpsRoutingKey"];

function address(t) {
  for (const k of ADDRESS) if (t && t[k]) return `${k}: ${t[k]}`;
  return "";
}

function noteCard(n) {
  const d = n.delivery || {};
  const t = n.target || {};
  const delivered = n.typeName === "WEBHOOK"
    ? [el("dt", {}, "delivery"), el("dd", {},
        el("span", { class: `badge s-${d.status}` }, d.status), ` ${d.attempts || 0} attempt${d.attempts === 1 ? "" : "s"}`,
        d.lastResponseCode ? `, answered ${d.lastResponseCode}` : "", d.lastError ? ` — ${d.lastError}` : "")]
    : [el("dt", {}, "delivery"), el("dd", {}, el("span", { class: `badge s-${d.status}` }, d.status))];
  const sent = d.payload !== undefined || d.signature
    ? el("details", {},
        el("summary", {}, "Payload and signature"),
        el("div", {}, "X-MMS-Signature: ", d.signature ? el("code", {}, d.signature) : el("span", { class: "muted" }, "none (no secret)")),
        d.payload !== undefined ? el("pre", {}, JSON.stringify(d.payload, null, 2)) : null)
    : null;
  return el("li", { "data-id": n.id },
    el("div", { class: "head" },
      el("strong", {}, n.event), el("span", {}, `${n.typeName}`), el("span", { class: "muted" }, address(t))),
    el("dl", {},
      el("dt", {}, "alert"), el("dd", {}, el("span", { class: "id" }, el("code", {}, n.alertId), copyButton(n.alertId, `alert id ${n.alertId}`))),
      el("dt", {}, "sent"), el("dd", {}, n.sentAt),
      ...delivered),
    sent);
}

function upsertNote(n) {
  const known = state.notes.has(n.id);
  const prev = state.notes.get(n.id);
  if (prev && prev.delivery && prev.delivery.payload !== undefined && n.delivery && n.delivery.payload === undefined) {
    n.delivery.payload = prev.delivery.payload;
    n.delivery.signature = prev.delivery.signature;
  }
  state.notes.set(n.id, n);
  if (!known) state.notesTotal = (state.notesTotal || 0) + 1;
  const list = $("notification-list");
  const old = list.querySelector(`li[data-id="${CSS.escape(n.id)}"]`);
  const card = noteCard(n);
  flash(card);
  if (old) replaceKeepingFocus(old, card);
  else list.prepend(card);
  while (list.children.length > PAGE) list.lastElementChild.remove();
  $("notifications-count").textContent = countText(list.children.length, state.notesTotal, "notification");
}

async function loadNotes() {
  const { items, total } = await newest(`${CONTROLS}/notifications?payloads=true`);
  state.notes = new Map(items.map((n) => [n.id, n]));
  state.notesTotal = total;
  $("notification-list").replaceChildren(...items.map(noteCard));
  $("notifications-count").textContent = countText(items.length, total, "notification");
}

// ---- Requests

function requestCard(r) {
  const q = r.query ? `?${r.query}` : "";
  const body = r.body !== undefined
    ? el("details", {}, el("summary", {}, "Body"), el("pre", {}, JSON.stringify(r.body, null, 2)))
    : r.bodyBytes ? el("div", { class: "muted" }, `body of ${r.bodyBytes} bytes, too large to keep`) : null;
  return el("li", { "data-id": r.id },
    el("div", { class: "head" },
      el("span", { class: `badge ${r.status >= 400 || r.status === 0 ? "s-FAILED" : "s-DELIVERED"}` }, r.status || "closed"),
      el("strong", {}, r.method), el("code", {}, r.path + q)),
    el("div", { class: "muted" }, `${r.time} · ${r.caller || "no credentials"} · ${r.remoteAddr}${r.errorCode ? ` · ${r.errorCode}` : ""}`),
    body);
}

function addRequest(r) {
  const list = $("request-list");
  list.prepend(requestCard(r));
  while (list.children.length > PAGE) list.lastElementChild.remove();
  state.requestsTotal = (state.requestsTotal || 0) + 1;
  $("requests-count").textContent = countText(list.children.length, state.requestsTotal, "request");
}

async function loadRequests() {
  const { items, total } = await newest(`${CONTROLS}/requests`);
  state.requestsTotal = total;
  $("request-list").replaceChildren(...items.map(requestCard));
  $("requests-count").textContent = countText(items.length, total, "request");
}

// ---- Clock and faults

function showClock(now) {
  state.now = now;
  $("clock-now").textContent = now;
  $("clock-now").dateTime = now;
}

async function loadClock() {
  showClock((await call("GET", `${CONTROLS}/clock`)).now);
}

function faultCard(f) {
  const what = f.reset ? "close the connection" : f.status ? `answer ${f.status} ${f.errorCode || ""}` : "serve normally";
  const extra = [f.delay ? `after ${f.delay}` : "", f.times !== undefined ? `${f.times} more time${f.times === 1 ? "" : "s"}` : "",
    f.probability !== 1 ? `probability ${f.probability}` : ""].filter(Boolean).join(", ");
  return el("li", { "data-id": f.id },
    el("div", { class: "head" }, el("strong", {}, f.method || "any method"), el("code", {}, f.path)),
    el("div", {}, `${what}${extra ? ` (${extra})` : ""}`),
    el("div", { class: "actions" }, el("button", {
      type: "button", "aria-label": `Remove fault ${f.path}`,
      onclick: () => act(() => call("DELETE", `${CONTROLS}/faults/${encodeURIComponent(f.id)}`).then(loadFaults)),
    }, "Remove")));
}

async function loadFaults() {
  const list = await call("GET", `${CONTROLS}/faults?itemsPerPage=${PAGE}`);
  $("fault-list").replaceChildren(...list.results.map(faultCard));
  if (!list.results.length) $("fault-list").append(el("li", { class: "muted" }, "No faults: every request is served."));
}

function faultBody(form) {
  const f = new FormData(form);
  const body = { path: f.get("path") };
  if (f.get("method")) body.method = f.get("method");
  for (const k of ["status", "times"]) if (f.get(k)) body[k] = Number(f.get(k));
  if (f.get("probability")) body.probability = Number(f.get("probability"));
  for (const k of ["errorCode", "delay"]) if (f.get(k)) body[k] = f.get(k);
  if (f.get("reset")) body.reset = true;
  return body;
}

async function act(fn) {
  try {
    await fn();
    problem("");
  } catch (e) {
    problem(e.message);
  }
}

// ---- Live updates

async function loadAll() {
  await act(async () => {
    await loadProjects();
    await Promise.all([loadAlerts(), loadNotes(), loadRequests(), loadClock(), loadFaults()]);
  });
}

function follow() {
  const live = $("live");
  const source = new EventSource(`${CONTROLS}/stream`);
  let opened = false;
  source.addEventListener("open", () => {
    live.textContent = "live";
    live.classList.add("on");
    // Whatever changed while the stream was down is read again.
    if (opened) loadAll();
    opened = true;
  });
  source.addEventListener("error", () => {
    live.textContent = "reconnecting…";
    live.classList.remove("on");
  });
  const on = (kind, fn) => source.addEventListener(kind, (ev) => fn(JSON.parse(ev.data)));
  on("alert", (a) => upsertAlert(a, isGlobal(a)));
  on("notification", upsertNote);
  on("delivery", upsertNote);
  on("request", addRequest);
  on("clock", (c) => showClock(c.now));
  on("reset", () => loadAll());
}

function wire() {
  $("filter-project").addEventListener("change", () => act(loadAlerts));
  $("filter-status").addEventListener("change", () => act(loadAlerts));
  $("alert-filters").addEventListener("submit", (ev) => ev.preventDefault());
  $("clock-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    act(async () => showClock((await call("POST", `${CONTROLS}/clock`, { advance: $("clock-advance").value.trim() })).now));
  });
  $("fault-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    act(async () => {
      await call("POST", `${CONTROLS}/faults`, faultBody(ev.target));
      ev.target.reset();
      await loadFaults();
    });
  });
  $("faults-clear").addEventListener("click", () => act(() => call("DELETE", `${CONTROLS}/faults`).then(loadFaults)));
  $("requests-clear").addEventListener("click", () => act(() => call("DELETE", `${CONTROLS}/requests`).then(loadRequests)));
  // A real clock moves by itself: read it now and then.
  setInterval(() => act(loadClock), 5000);
}

wire();
follow();
loadAll();
