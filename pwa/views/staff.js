// The organizer's desk: invite staff devices (QR codes) by name, list and revoke them, export the event,
// close it, delete it, or remove it from this device.
import { inviteOptions, roleTitle } from "../app/roles.js";
import { hallInfo, invite, revokeToken, rules, staffDevices } from "../app/services.js";
import { confirms, deleteEverywhere, forgetHere, unsentCount } from "../app/event-tools.js";
import { announce, field, h, label, replace, select, when } from "../ui/dom.js";

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

async function mount(root, { store }) {
  // ---------------------------------------------------------------- invitations
  const role = select(inviteOptions(), { id: "invite-role" });
  const inviteName = h("input", { type: "text", id: "invite-label", maxlength: "200", autocomplete: "off", placeholder: "Judge Ada" });
  const out = h("div", { class: "invitations", "aria-live": "polite" });
  const form = h("form", { class: "card", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const inv = await invite(store.session, role.value, inviteName.value.trim());
      inviteName.value = "";
      const title = inv.label ? `${inv.label} (${label(inv.role)})` : `${label(inv.role)} invitation`;
      out.prepend(h("div", { class: "invitation card", dataset: { code: inv.code, role: inv.role, label: inv.label || "" } },
        h("h3", {}, title),
        h("div", { class: "qr", html: inv.qr_svg, role: "img", "aria-label": `QR code for ${inv.link}` }),
        h("p", { class: "code" }, inv.code), h("p", {}, h("a", { href: inv.link }, inv.link)),
        h("p", { class: "hint" }, "Scan with the tablet, or type the code on its Join screen. Works once.")));
      loadDevices();
    } catch (err) {
      out.prepend(h("p", { class: "error", role: "alert" }, err.message));
    }
  } }, h("h2", {}, "Invite a staff device"), field("Role", role),
  field("Name", inviteName, "Who the device is for: the Staff devices list shows this name."),
  h("button", { type: "submit", class: "primary", id: "invite" }, "Create invitation"));

  // ---------------------------------------------------------------- staff devices
  const devicesBody = h("div", { id: "staff-devices-body" });
  const devicesMessage = h("p", { class: "error", role: "alert", id: "staff-devices-message" });
  let confirming = null;  // the token whose "Revoke" was pressed once
  let devices = null;

  const drawDevices = () => {
    if (!devices) return;
    const rank = (t) => (t.this_device ? 0 : t.revoked || t.expired ? 2 : 1);
    const rows = [...devices].sort((a, b) => rank(a) - rank(b));
    replace(devicesBody, h("table", { class: "staff-devices" },
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
      }))));
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

  const devicesCard = h("section", { class: "card", id: "staff-devices", "aria-labelledby": "staff-devices-title" },
    h("h2", { id: "staff-devices-title" }, "Staff devices"),
    h("p", { class: "hint" }, "A revoked device can send no more changes; invite it again to give access back."),
    devicesMessage, devicesBody,
    h("button", { type: "button", class: "small", id: "refresh-devices", onclick: () => loadDevices() }, "Refresh"));
  loadDevices();
  const devicesTimer = setInterval(() => { if (confirming === null) loadDevices(); }, DEVICES_EVERY_MS);

  // ---------------------------------------------------------------- export
  const exportButton = h("button", { type: "button", onclick: async () => {
    const doc = await rules("export", { event_id: store.eventId });
    const blob = new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `${(store.state.name || "event").replace(/\W+/g, "-")}.topcut.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } }, "Download the event (topcut-event/1 JSON)");

  // ---------------------------------------------------------------- close
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

  // ---------------------------------------------------------------- delete, remove from this device
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
  const deleteCard = h("section", { class: "card danger-zone", id: "delete-event-card", "aria-labelledby": "delete-title" },
    h("h2", { id: "delete-title" }, "Delete the event"),
    h("p", {}, "Deletes the event on the server for everyone: its log, results, staff access and players' claims. "
      + "Tablets and phones can no longer sync it. Download the event first to keep a copy. Needs the network."),
    field("Type the event's name to confirm", typed, `“${store.state.name || store.eventId}” (or its id, ${store.eventId})`),
    deleteButton, deleteMessage);

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
  const removeCard = h("section", { class: "card", id: "remove-local-card" }, h("h2", {}, "This device"), removeMessage, removeBox);

  // ---------------------------------------------------------------- hall network
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

  drawClose();
  replace(root, h("h1", {}, "Staff & export"), hall, h("div", { class: "grid" }, form, devicesCard), out,
    h("div", { class: "grid" },
      h("section", { class: "card" }, h("h2", {}, "Export"), h("p", {}, "Built on this device from its copy of the log, so it works offline."), exportButton,
        h("p", {}, "Public page for players and spectators: ", h("a", { href: `#/public/${store.eventId}` }, "standings and pairings"))),
      closeBox),
    h("div", { class: "grid" }, deleteCard, removeCard));
  return {
    update() {
      if (!closeAsked) drawClose();
    },
    destroy() {
      clearInterval(devicesTimer);
    },
  };
}

export default { mount };
