// Staff devices (invitations with QR codes) and export of the event document.
import { hallInfo, invite } from "../api.js";
import { rules } from "../rules-client.js";
import { field, h, replace, select } from "../ui.js";

async function mount(root, { store }) {
  const role = select([["judge", "Judge"], ["head-judge", "Head judge"], ["scorekeeper", "Scorekeeper"], ["organizer", "Co-organizer"]], { id: "invite-role" });
  const out = h("div", { class: "invitations", "aria-live": "polite" });
  const form = h("form", { class: "card", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const inv = await invite(store.session, role.value);
      out.prepend(h("div", { class: "invitation card", dataset: { code: inv.code, role: inv.role } },
        h("h3", {}, `${inv.role} invitation`),
        h("div", { class: "qr", html: inv.qr_svg, role: "img", "aria-label": `QR code for ${inv.link}` }),
        h("p", { class: "code" }, inv.code), h("p", {}, h("a", { href: inv.link }, inv.link)),
        h("p", { class: "hint" }, "Scan with the tablet, or type the code on its Join screen. Works once.")));
    } catch (err) {
      out.prepend(h("p", { class: "error", role: "alert" }, err.message));
    }
  } }, h("h2", {}, "Invite a staff device"), field("Role", role), h("button", { type: "submit", class: "primary", id: "invite" }, "Create invitation"));

  const exportButton = h("button", { type: "button", onclick: async () => {
    const doc = await rules("export", { event_id: store.eventId });
    const blob = new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `${(store.state.name || "event").replace(/\W+/g, "-")}.topcut.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } }, "Download the event (topcut-event/1 JSON)");

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

  replace(root, h("h1", {}, "Staff & export"), hall, h("div", { class: "grid" }, form,
    h("section", { class: "card" }, h("h2", {}, "Export"), h("p", {}, "Built on this device from its copy of the log, so it works offline."), exportButton,
      h("p", {}, "Public page for players and spectators: ", h("a", { href: `#/public/${store.eventId}` }, "standings and pairings")))), out);
  return {};
}

export default { mount };
