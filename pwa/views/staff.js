// The organizer's desk: invite staff devices (QR codes) by name, list and revoke them, close the event, delete
// it, or remove it from this device (its downloads are on the Exports screen: views/exports.js).
import { inviteOptions, roleTitle } from "../app/roles.js";
import { acknowledgeRecoveryCode, hallInfo, invite, newRecoveryCode, pendingRecoveryCode, recoveryStatus, revokeToken, rules,
  staffDevices, staffInvitations } from "../app/services.js";
import { confirms, deleteEverywhere, forgetHere, unsentCount } from "../app/event-tools.js";
import { announce, field, h, label, replace, select, when } from "../ui/dom.js";
import { deviceCards } from "../ui/notify.js";

const SETTLED = new Set(["confirmed", "resolved"]);
const DEVICES_EVERY_MS = 15_000;

/** Why the event cannot close, in the rules' words plus what is still open in its last round. */
function closeRefusal(state, reason) {
  const text = String(reason || "").replace(/^event\.close:\s*/, "");
  const last = state.rounds[state.rounds.length - 1];
  const open = last ? last.matches.filter((m) => !SETTLED.has(m.status)) : [];
  const tables = open.map((m) => m.table).filter((t) => t !== null && t !== undefined);
  const detail = last && open.length && !/^resolve the dispute/.test(text)
    ? ` Round ${last.number} (${last.status}): ${open.length} match${open.length === 1 ? "" : "es"} without a final result`
      + (tables.length ? ` (table${tables.length === 1 ? "" : "s"} ${tables.slice(0, 12).join(", ")}${tables.length > 12 ? ", …" : ""})` : "") + "."
    : "";
  return `The event cannot be closed: ${text}.${detail}`.replace(/\.\./g, ".");
}

/** "Invite a staff device": a role and a name give a one-time code, its link and QR code (shown in ``out``). */
function inviteCard(store, out, onInvited) {
  const role = select(inviteOptions(), { id: "invite-role" });
  const inviteName = h("input", { type: "text", id: "invite-label", maxlength: "200", autocomplete: "off", placeholder: "Judge Ada" });
  const form = h("form", { class: "card", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const inv = await invite(store.session, role.value, inviteName.value.trim());
      inviteName.value = "";
      const title = inv.label ? `${inv.label} (${label(inv.role)})` : `${label(inv.role)} invitation`;
      out.prepend(h("div", { class: "invitation card", dataset: { code: inv.code, role: inv.role, label: inv.label || "", invitation: inv.invitation_id } },
        h("h3", {}, title),
        h("div", { class: "qr", html: inv.qr_svg, role: "img", "aria-label": `QR code for ${inv.link}` }),
        h("p", { class: "code" }, inv.code), h("p", { class: "join-link" }, h("a", { href: inv.link }, inv.link)),
        h("p", { class: "hint" }, "Scan with the tablet, or type the code on its Join screen. Works once.")));
      onInvited();
    } catch (err) {
      out.prepend(h("p", { class: "error", role: "alert" }, err.message));
    }
  } }, h("h2", {}, "Invite a staff device"), field("Role", role),
  field("Name", inviteName, "Who the device is for: the Staff devices list shows this name."),
  h("button", { type: "submit", class: "primary", id: "invite" }, "Create invitation"));
  return form;
}

/** When an invitation was used and by whose device, or that it waits (or was revoked), in words. */
function invitationStatus(inv) {
  if (inv.used_at) return `used at ${when(inv.used_at)}${inv.used_by ? ` by ${inv.used_by}` : ""}`;
  return inv.revoked ? "revoked" : "not used yet";
}

/** The invitations made for this event, each marked used (when, by whose device) or waiting; the cards of
 * invitations made on this screen say so too. */
function drawInvitations(body, invitations) {
  for (const inv of invitations) {
    const card = document.querySelector(`.invitation.card[data-invitation="${CSS.escape(inv.invitation_id)}"]`);
    if (card && inv.used_at && !card.classList.contains("used")) {
      card.classList.add("used");
      for (const gone of card.querySelectorAll(".qr, .join-link, .hint")) gone.remove();  // the code works no more
      card.append(h("p", { class: "ok used-note" }, `Used at ${when(inv.used_at)}: ${inv.used_by || "the device"} has joined. The code no longer works.`));
    }
  }
  if (!invitations.length) {
    replace(body);
    return;
  }
  replace(body, h("div", { class: "table-wrap" }, h("table", { class: "staff-invitations" },
    h("caption", {}, `Invitations: ${invitations.filter((i) => i.used_at).length} of ${invitations.length} used`),
    h("thead", {}, h("tr", {}, ["Invitation", "Role", "Made", "Status"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, [...invitations].reverse().map((inv) => h("tr", { dataset: { invitation: inv.invitation_id, used: inv.used_at ? "yes" : "no" } },
      h("th", { scope: "row" }, inv.label || `${roleTitle(inv.role)} invitation`),
      h("td", {}, roleTitle(inv.role)),
      h("td", {}, when(inv.created_at)),
      h("td", {}, invitationStatus(inv))))))));
}

/** "Staff devices": every staff token of the event with its last sync, revocable (two presses); kept fresh. */
function devicesCard(store) {
  const devicesBody = h("div", { id: "staff-devices-body" });
  const invitationsBody = h("div", { id: "staff-invitations" });
  const devicesMessage = h("p", { class: "error", role: "alert", id: "staff-devices-message" });
  let confirming = null;  // the token whose "Revoke" was pressed once
  let devices = null;

  const drawDevices = () => {
    if (!devices) return;
    const rank = (t) => (t.this_device ? 0 : t.revoked || t.expired ? 2 : 1);
    const rows = [...devices].sort((a, b) => rank(a) - rank(b));
    replace(devicesBody, h("div", { class: "table-wrap" }, h("table", { class: "staff-devices" },
      h("caption", {}, `${rows.filter((t) => !t.revoked && !t.expired).length} staff device(s) with access`),
      h("thead", {}, h("tr", {}, ["Name", "Role", "Last seen", "Status", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows.map((t) => {
        const status = t.revoked ? "revoked" : t.expired ? "expired" : "active";
        let action = null;
        if (t.this_device) action = h("span", { class: "hint" }, "—");
        else if (status === "active" && confirming === t.token_id) {
          action = h("span", { class: "confirm-step" },
            h("button", { type: "button", class: "small danger", dataset: { action: "confirm-revoke" }, onclick: () => revoke(t) },
              `Yes, revoke ${t.label || label(t.role)}`),
            " ", h("button", { type: "button", class: "small", dataset: { action: "cancel-revoke" },
              onclick: () => { confirming = null; drawDevices(); } }, "Cancel"));
        } else if (status === "active") {
          action = h("button", { type: "button", class: "small", dataset: { action: "revoke" },
            onclick: () => { confirming = t.token_id; drawDevices(); } }, "Revoke");
        }
        return h("tr", { dataset: { token: t.token_id, role: t.role, status, thisDevice: t.this_device ? "yes" : "no" } },
          h("th", { scope: "row" }, t.label || `${roleTitle(t.role)} device`,
            t.this_device ? [" ", h("span", { class: "badge this-device" }, "this device")] : null),
          h("td", {}, roleTitle(t.role)),
          h("td", {}, t.this_device ? "now" : t.last_seen_at ? when(t.last_seen_at) : "not yet"),
          h("td", {}, status),
          h("td", {}, action));
      })))));
  };

  const loadDevices = async () => {
    if (!navigator.onLine) {
      devicesMessage.textContent = "Offline: the staff device list comes from the server; it shows again when the connection is back.";
      return;
    }
    try {
      devices = (await staffDevices(store.session)).tokens;
      devicesMessage.textContent = "";
      drawDevices();
      drawInvitations(invitationsBody, (await staffInvitations(store.session)).invitations);
    } catch (err) {
      devicesMessage.textContent = `The staff device list could not be loaded: ${err.message}`;
    }
  };

  async function revoke(t) {
    try {
      await revokeToken(store.session, t.token_id);
      confirming = null;
      announce(`${t.label || t.role} revoked`);
      await loadDevices();
    } catch (err) {
      devicesMessage.textContent = `Not revoked: ${err.message}`;
    }
  }

  const card = h("section", { class: "card", id: "staff-devices", "aria-labelledby": "staff-devices-title" },
    h("h2", { id: "staff-devices-title" }, "Staff devices"),
    h("p", { class: "hint" }, "A revoked device can send no more changes; invite it again to give access back."),
    devicesMessage, devicesBody, invitationsBody,
    h("button", { type: "button", class: "small", id: "refresh-devices", onclick: () => loadDevices() }, "Refresh"));
  loadDevices();
  const timer = setInterval(() => { if (confirming === null) loadDevices(); }, DEVICES_EVERY_MS);
  return { el: card, load: loadDevices, stop: () => clearInterval(timer) };
}

/**
 * "A way back in": organizer access lives in this browser, so the event needs a spare organizer device or a
 * printed recovery code (backend/recovery.py) for the day this laptop dies. Warns while it has neither; shows
 * a code this device was given until the organizer says it is kept; makes a new one; invites a spare device.
 */
function wayBackCard(store) {
  const body = h("div", { id: "way-back-body" });
  const invited = h("div", { class: "invitations", "aria-live": "polite" });
  const message = h("p", { class: "error", role: "alert", id: "way-back-message" });
  let status = null;       // the server's recovery status, or null (offline, not loaded)
  let spares = null;       // the other active organizer devices, or null (not known)
  let pending = null;      // a code this device was shown and nobody acknowledged
  let asking = null;       // "new-code" | "spare": the step being confirmed
  const spareName = h("input", { type: "text", id: "spare-label", maxlength: "200", autocomplete: "off", value: "Spare organizer device" });

  let address = globalThis.location?.origin ?? "";  // where to recover: the hall address when the server has one
  hallInfo().then((info) => { if (info?.hall_url) { address = info.hall_url; draw(); } });
  const load = async () => {
    pending = await pendingRecoveryCode(store.eventId);
    if (store.session?.pending_create || !navigator.onLine) {
      draw();
      return;
    }
    try {
      const [s, devices] = await Promise.all([recoveryStatus(store.session), staffDevices(store.session)]);
      status = s;
      spares = devices.tokens.filter((t) => t.role === "organizer" && !t.this_device && !t.revoked && !t.expired);
      message.textContent = "";
    } catch (err) {
      message.textContent = `Could not ask the server: ${err.message}`;
    }
    draw();
  };
  const act = async (fn, done) => {
    message.textContent = "";
    try {
      await fn();
      await store.refold();  // the store's copy of the session (the code kept here, or not) follows
      asking = null;
      if (done) announce(done);
    } catch (err) {
      message.textContent = err.message;
    }
    await load();
  };
  const printCode = () => {
    document.body.dataset.print = "recovery";
    globalThis.addEventListener("afterprint", () => { delete document.body.dataset.print; }, { once: true });
    globalThis.print();
  };
  const inviteSpare = async () => {
    const inv = await invite(store.session, "organizer", spareName.value.trim() || "Spare organizer device");
    replace(invited, h("div", { class: "invitation card", id: "spare-invitation", dataset: { code: inv.code, role: inv.role } },
      h("h3", {}, `${inv.label || "Spare organizer device"} (organizer)`),
      h("div", { class: "qr", html: inv.qr_svg, role: "img", "aria-label": `QR code for ${inv.link}` }),
      h("p", { class: "code" }, inv.code), h("p", {}, h("a", { href: inv.link }, inv.link)),
      h("p", { class: "hint" }, "Open it on the spare device (scan, or type the code on its Join screen) now. Works once.")));
  };

  const codeSheet = () => h("div", { id: "recovery-sheet", class: "recovery-sheet" },
    h("p", {}, h("strong", {}, `Recovery code for “${store.state?.name || store.eventId}”`)),
    h("p", { class: "code recovery-code", id: "recovery-code" }, pending),
    h("p", {}, "Topcut: ", h("strong", { id: "recovery-address" }, `${address}/`)),
    h("p", {}, "On any device: open that address, “I'm the organizer: recover with a code”, type the code. "
      + "Keep it safe, like a key: whoever has it can run the event. It works once; then print a new one."));

  const draw = () => {
    const kept = status?.issued && status.acknowledged_at;
    const safe = Boolean(kept || spares?.length);
    const parts = [];
    if (!safe && (status || store.session?.pending_create)) {
      parts.push(h("p", { class: "warning", id: "way-back-warning", role: "status" },
        h("strong", {}, "Organizer access to this event lives only in this browser. "),
        "If this device dies or is lost, nobody can pair, fix results or close the event. Print the recovery code, or add a spare organizer device."));
    }
    if (store.session?.pending_create) {
      parts.push(h("p", { class: "hint", id: "recovery-later" }, "The event is not on the server yet (made offline): its recovery code "
        + "is made when it gets there, and shown here then. A spare organizer device can be invited then too."));
    } else if (pending) {
      parts.push(codeSheet(), h("p", { class: "actions" },
        h("button", { type: "button", id: "print-recovery", onclick: printCode }, "Print the code"), " ",
        h("button", { type: "button", class: "primary", id: "ack-recovery",
          onclick: () => act(() => acknowledgeRecoveryCode(store.session), "Recovery code kept") }, "I have printed it or written it down")));
    } else if (status) {
      parts.push(h("p", { id: "recovery-state" }, kept ? `Recovery code printed or written down (made ${when(status.created_at)}).`
        : status.issued ? `A recovery code was made ${when(status.created_at)}, but nobody said it is kept. If you do not have it, make a new one.`
          : "No recovery code: it was used, or never made. Make one and keep it safe."));
      parts.push(asking === "new-code"
        ? h("p", { class: "confirm-step" }, status.issued ? "The code you have stops working. " : "",
          h("button", { type: "button", class: "primary", id: "confirm-new-recovery",
            onclick: () => act(() => newRecoveryCode(store.session)) }, "Make the new code"), " ",
          h("button", { type: "button", onclick: () => { asking = null; draw(); } }, "Cancel"))
        : h("button", { type: "button", id: "new-recovery", onclick: () => { asking = "new-code"; draw(); } },
          status.issued ? "Make a new recovery code…" : "Make a recovery code"));
    }
    if (spares) {
      parts.push(h("p", { id: "spare-organizers" }, spares.length
        ? `Spare organizer device${spares.length === 1 ? "" : "s"}: ${spares.map((t) => t.label || "organizer device").join(", ")}.`
        : "No spare organizer device."));
      parts.push(asking === "spare"
        ? h("div", { class: "confirm-step" }, h("p", { class: "warning" }, "A spare organizer device can do everything this one can: "
          + "pair, change results, invite and revoke staff, delete the event. Invite only a device you keep (your phone, a second laptop)."),
        field("Name", spareName), h("button", { type: "button", class: "primary", id: "confirm-spare",
          onclick: () => act(inviteSpare, "Spare organizer invitation made") }, "Invite the spare organizer device"), " ",
        h("button", { type: "button", onclick: () => { asking = null; draw(); } }, "Cancel"))
        : h("button", { type: "button", id: "invite-spare", onclick: () => { asking = "spare"; draw(); } }, "Invite a spare organizer device…"));
    }
    if (!navigator.onLine && !store.session?.pending_create) parts.push(h("p", { class: "hint" }, "Offline: this comes from the server; it shows when the connection is back."));
    replace(body, ...parts);
  };

  const card = h("section", { class: "card", id: "way-back", "aria-labelledby": "way-back-title" },
    h("h2", { id: "way-back-title" }, "A way back in"), message, body, invited);
  load();
  return { el: card, load, pendingCreate: () => Boolean(store.session?.pending_create) };
}

/** "Close the event" (asked twice, checked by the rules first) or, once closed, saying so. */
function closeCard(store) {
  const closeBox = h("section", { class: "card", id: "close-event", "aria-labelledby": "close-title" });
  const closeMessage = h("p", { class: "error", role: "alert", id: "close-message" });
  let closeAsked = false;
  const drawClose = () => {
    const st = store.state;
    if (st.closed) {
      replace(closeBox, h("h2", { id: "close-title" }, "Event closed"),
        h("p", { id: "closed-note" }, "This event is closed: final standings stand; no result, player or round can change any more, from any device."));
      return;
    }
    const children = [h("h2", { id: "close-title" }, "Close the event"),
      h("p", {}, "Ends the event: the standings become final and no device can change anything afterwards. "
        + "Every round must be complete, with no open dispute. This cannot be undone."), closeMessage];
    if (closeAsked) {
      children.push(h("p", { class: "confirm-step" },
        h("button", { type: "button", class: "danger", id: "close-confirm", onclick: closeNow }, "Yes, close the event"), " ",
        h("button", { type: "button", id: "close-cancel", onclick: () => { closeAsked = false; drawClose(); } }, "Cancel")));
    } else {
      children.push(h("button", { type: "button", id: "close-event-button",
        onclick: () => { closeMessage.textContent = ""; closeAsked = true; drawClose(); } }, "Close the event…"));
    }
    replace(closeBox, ...children);
  };

  async function closeNow() {
    closeAsked = false;
    const s = store.session;
    // Asked of the rules first, so a refusal leaves nothing in the outbox to be refused again by the server.
    const check = await rules("check_op", { event_id: store.eventId, op: {
      type: "event.close", op_id: `${s.device}:${s.next_seq}`, device: s.device, actor: store.actor(), at: store.now(), payload: {},
    } });
    if (!check.ok) {
      closeMessage.textContent = closeRefusal(store.state, check.reason);
      drawClose();
      return;
    }
    const { refused } = await store.act("event.close", {});
    closeMessage.textContent = refused ? closeRefusal(store.state, refused) : "";
    if (!refused) announce("The event is closed");
    drawClose();
  }
  return { el: closeBox, draw: drawClose, asking: () => closeAsked };
}

/** "Delete the event" on the server for everyone, once the event's name (or id) is typed. */
function deleteCard(store) {
  const typed = h("input", { type: "text", id: "delete-confirm", autocomplete: "off", spellcheck: false });
  const deleteMessage = h("p", { class: "error", role: "alert", id: "delete-message" });
  const deleteButton = h("button", { type: "button", class: "danger", id: "delete-event", disabled: true, onclick: async () => {
    deleteMessage.textContent = "";
    deleteButton.disabled = true;
    try {
      await deleteEverywhere(store, typed.value);
    } catch (err) {
      deleteMessage.textContent = err.message;
      deleteButton.disabled = !confirms(typed.value, store.state.name, store.eventId);
    }
  } }, "Delete event for good");
  typed.addEventListener("input", () => { deleteButton.disabled = !confirms(typed.value, store.state.name, store.eventId); });
  const card = h("section", { class: "card danger-zone", id: "delete-event-card", "aria-labelledby": "delete-title" },
    h("h2", { id: "delete-title" }, "Delete the event"),
    h("p", {}, "Deletes the event on the server for everyone: its log, results, staff access and players' claims. "
      + "Tablets and phones can no longer sync it. Download the event first to keep a copy (Exports). Needs the network."),
    field("Type the event's name to confirm", typed, `“${store.state.name || store.eventId}” (or its id, ${store.eventId})`),
    deleteButton, deleteMessage);
  return card;
}

/** "This device": forget the event here (it stays on the server), warning of changes not yet synced. */
function removeCard(store) {
  const removeMessage = h("p", { role: "status", id: "remove-message" });
  let removeAsked = false;
  const removeBox = h("div", {});
  const drawRemove = async () => {
    if (!removeAsked) {
      replace(removeBox, h("button", { type: "button", id: "remove-local", onclick: () => { removeAsked = true; drawRemove(); } },
        "Remove from this device…"));
      return;
    }
    const waiting = await unsentCount(store.eventId);
    replace(removeBox,
      h("p", { class: "warning" }, "The event stays on the server; this device forgets it and its access. ",
        waiting ? h("strong", {}, `${waiting} change${waiting === 1 ? "" : "s"} not yet synced will be lost. `) : null,
        "Keep another organizer device (or invite a co-organizer) first, or nobody can manage the event any more."),
      h("button", { type: "button", class: "danger", id: "remove-local-confirm",
        onclick: () => forgetHere(store.eventId, `Event “${store.state.name || store.eventId}” was removed from this device (it stays on the server).`) },
      "Yes, remove from this device"), " ",
      h("button", { type: "button", onclick: () => { removeAsked = false; drawRemove(); } }, "Cancel"));
  };
  drawRemove();
  const card = h("section", { class: "card", id: "remove-local-card" }, h("h2", {}, "This device"), removeMessage, removeBox);
  return card;
}

/** The hall network's address and certificate, when the server has one. */
function hallCard() {
  // Tablets reach this server at the hall address (HTTPS, with the hall's certificate), never at 127.0.0.1.
  const hall = h("section", { class: "card hall", id: "hall-network", hidden: true });
  hallInfo().then((info) => {
    if (!info?.hall_url) return;
    replace(hall, h("h2", {}, "Hall network"),
      h("p", {}, "Tablets and phones open ", h("a", { href: `${info.hall_url}/`, id: "hall-url" }, `${info.hall_url}/`),
        " (the invitation links and QR codes use it)."),
      info.ca_url ? h("p", {}, "Before the first time, install the hall certificate on each tablet: ",
        h("a", { href: info.ca_url, download: "topcut-hall-ca.crt", id: "hall-ca" }, "topcut-hall-ca.crt"),
        " (README: Hall network). Without it the tablet says the connection is not private.") : null);
    hall.hidden = false;
  });
  return hall;
}

async function mount(root, { store }) {
  const out = h("div", { class: "invitations", "aria-live": "polite" });
  const devices = devicesCard(store);
  const form = inviteCard(store, out, () => devices.load());
  const close = closeCard(store);
  close.draw();
  const wayBack = wayBackCard(store);
  let wasPending = wayBack.pendingCreate();
  // An event made offline reaches the server with a sync that may change nothing on screen: watch the store.
  const reached = () => {
    if (wasPending && !wayBack.pendingCreate()) wayBack.load();  // its recovery code came with the answer
    wasPending = wayBack.pendingCreate();
  };
  store.addEventListener("change", reached);
  replace(root, h("h1", {}, "Staff"), hallCard(), wayBack.el, h("div", { class: "grid" }, form, devices.el), out,
    h("p", { class: "hint", id: "exports-moved" }, "Downloads (the event file, CSV, TOM file) are on the ",
      h("a", { href: `#/event/${store.eventId}/exports` }, "Exports"), " screen."),
    h("div", { class: "grid" }, close.el),
    deviceCards(store),  // this device's notifications, what push services refused, the installed app (ui/notify.js)
    h("div", { class: "grid" }, deleteCard(store), removeCard(store)));
  return {
    update() {
      if (!close.asking()) close.draw();
      reached();
    },
    destroy() {
      store.removeEventListener("change", reached);
      devices.stop();
    },
  };
}

export default { mount };
